export type CitationKind = 'full_case' | 'short_case' | 'id' | 'supra' | 'law' | 'journal'

export interface CitationCandidate {
  /** canonical edition key, e.g. 'F.3d' (law/journal: the key in laws.json / journals.json) */
  reporter: string
  /** full name of the reporter series, law code or journal */
  name: string
  /** e.g. 'federal', 'state', 'neutral', 'leg_statute', 'journal' */
  cite_type: string
}

/**
 * One citation found in a text.
 *
 * Offsets: `start`/`end` are JavaScript string indices (UTF-16 code units, the unit of
 * `String.prototype.slice`) into the ORIGINAL input as given — for HTML input, into the HTML
 * (see `extractCitations`). `matchedText === input.slice(start, end)` always holds.
 *
 * The span covers the citation proper — `576 U.S. 644`, `Id.`, `supra`, `42 U.S.C. § 1983` —
 * while `fullEnd` also covers what was parsed after it (pin cite, parentheticals).
 */
export interface FoundCitation {
  kind: CitationKind
  matchedText: string
  start: number
  end: number
  /** end of the citation including pin cite and parentheticals (>= end) */
  fullEnd: number
  volume?: string
  /** canonical edition abbreviation chosen for this citation, e.g. 'F.3d' */
  reporter?: string
  page?: string
  /** the reporter as written, e.g. 'F. 3d' */
  reporterFound?: string
  pinCite?: string
  /** court id (courts-db id such as 'ca9', 'scotus') when the parenthetical names a known court */
  court?: string
  /** the court text of the court/year parenthetical as written, e.g. '9th Cir.' */
  courtText?: string
  year?: number
  /** the first parenthetical that is not the court/year one, e.g. 'holding that …' */
  parenthetical?: string
  /** every canonical edition the written reporter can mean here (chosen one first) */
  candidates: CitationCandidate[]
  /** one normalized citation per distinct candidate edition, e.g. ['576 U.S. 644'] */
  normalized: string[]
  /** supra: the word before ', supra' (usually the case name); id/supra/short: see pinCite */
  antecedent?: string
  /** law: title (or chapter) number, e.g. '42' in '42 U.S.C. § 1983' */
  title?: string
  /** law: section, e.g. '1983' */
  section?: string
  /** any other named parts the pattern captured (law subject, docket number, nominative reporter, …) */
  extra?: Record<string, string>
}

export interface ExtractOptions {
  /** true: input is HTML; false: plain text; undefined: HTML when the text contains tags */
  html?: boolean
}

export interface ReporterInfo {
  canonical: string
  name: string
  cite_type: string
}
