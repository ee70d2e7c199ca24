/**
 * Legal citation extractor: a pure library, no I/O at call time except the one-time lazy load of
 * the reporter databases in data/reporters/ (and data/courts/courts.json for court ids) at first use.
 *
 * See README.md beside this file for the rules, the design and the known gaps.
 */
import { extractFromPlain } from './extract.js'
import { getMatcher } from './matcher.js'
import type { ReporterString } from './reporter-types.js'
import { normKey } from './trie.js'
import { looksLikeHtml, stripHtml } from './html.js'
import type { ExtractOptions, FoundCitation, ReporterInfo } from './types.js'

export type { CitationKind, CitationCandidate, FoundCitation, ExtractOptions, ReporterInfo } from './types.js'

/**
 * Finds the citations in `text`, in text order: full case citations, short case citations
 * (`512 U.S., at 600`), `Id.`, `supra`, statutes/regulations (laws.json) and journal articles
 * (journals.json).
 *
 * Offsets (`start`, `end`, `fullEnd`) are JavaScript string indices — UTF-16 code units, as used
 * by `String.prototype.slice` — into the input exactly as given.
 *
 * HTML: with `opts.html === true`, or when `opts.html` is not given and the text contains tags,
 * the input is treated as HTML: tags are removed (block tags count as a space) and character
 * references decoded for matching only. Offsets still point into the HTML as given:
 * `html.slice(c.start, c.end) === c.matchedText` is the citation as written there, tags inside it
 * included (`576 <i>U.S.</i> 644`). Field values (volume, page, reporterFound, parenthetical…)
 * are taken from the decoded text. Pass `html: false` to treat text with '<' as plain text.
 */
export function extractCitations(text: string, opts: ExtractOptions = {}): FoundCitation[] {
  const html = opts.html ?? looksLikeHtml(text)
  if (!html) return extractFromPlain(text)
  const stripped = stripHtml(text)
  const found = extractFromPlain(stripped.text)
  for (const c of found) {
    const s = stripped.srcStart[c.start]
    const e = c.end > c.start ? stripped.srcEnd[c.end - 1] : s
    const fe = c.fullEnd > c.start ? stripped.srcEnd[c.fullEnd - 1] : e
    c.start = s
    c.end = e
    c.fullEnd = Math.max(fe, e)
    c.matchedText = text.slice(s, e)
  }
  return found
}

/**
 * The canonical editions an abbreviation can mean — a reporter edition key or any of its
 * variations ('F. 3d' → F.3d), or a law / journal abbreviation. Case reporters come first.
 * Whitespace and curly quotes are normalised; if the exact spelling is unknown, a match ignoring
 * all whitespace is tried ('F.Supp. 2d'). [] when unknown.
 */
export function normalizeReporter(abbrev: string): ReporterInfo[] {
  const m = getMatcher()
  const key = normKey(abbrev)
  let found: ReporterString[] = []
  const exact = m.strings.get(key)
  if (exact) found = [exact]
  else found = m.compact.get(key.replace(/\s+/g, '')) ?? []
  const out: ReporterInfo[] = []
  const seen = new Set<string>()
  const order = { case: 0, law: 1, journal: 2 }
  const refs = found.flatMap((rs) => rs.named).sort((a, b) => order[a.kind] - order[b.kind])
  for (const r of refs) {
    const k = r.canonical + '\u0000' + r.name
    if (seen.has(k)) continue
    seen.add(k)
    out.push({ canonical: r.canonical, name: r.name, cite_type: r.cite_type })
  }
  return out
}

/** Builds the matcher now instead of at the first call (e.g. at server start). Returns its size. */
export function warmUp(): { strings: number; editions: number; patterns: number } {
  const m = getMatcher()
  return { strings: m.strings.size, editions: m.editionCount, patterns: m.patternCount }
}
