/**
 * The single-pass extractor over plain text. See index.ts for the public API.
 *
 * One left-to-right loop over the characters. At each position that can start something (a char
 * that begins some reporter/law/journal string, or 'I'/'i' for Id., 's' for supra) and that is not
 * inside a word, the trie (trie.ts) lists the strings found there; only the patterns owned
 * by those strings are tried, anchored at that position (prefix as a sticky look-behind, suffix as
 * a sticky regex). Nothing loops over reporters and no regex scans the whole text.
 */
import { getMatcher } from './matcher.js'
import type { EditionRef, Plan } from './reporter-types.js'
import { walkTrie, newHits, normKey, type TrieHits } from './trie.js'
import { courtIdFor } from './courts.js'
import type { CitationCandidate, CitationKind, FoundCitation } from './types.js'

/** Internal record: a FoundCitation plus what is needed to finish it after the pass. */
interface Raw {
  cit: FoundCitation
  refs: EditionRef[]
  written: string
  /** the pattern captured the whole reporter itself ('Cal. Penal Code'): normalise to that text */
  ownReporter?: boolean
}

// characters that may not directly precede a citation start (inside a word / abbreviation)
const BLOCK_PREV = new Uint8Array(65536)
for (let c = 65; c <= 90; c++) BLOCK_PREV[c] = 1
for (let c = 97; c <= 122; c++) BLOCK_PREV[c] = 1
for (let c = 0xc0; c < 0x2000; c++) BLOCK_PREV[c] = 1
BLOCK_PREV[46] = 1 // .
BLOCK_PREV[39] = 1 // '
BLOCK_PREV[0x2019] = 1
BLOCK_PREV[95] = 1 // _

const isDigit = (c: number) => c >= 48 && c <= 57
const isAlnum = (c: number) => isDigit(c) || ((c | 32) >= 97 && (c | 32) <= 122)

// ---------------------------------------------------------------------------------------------
// pin cites and parentheticals

const PIN_ITEM = '(?:¶¶?\\s*|§§?\\s*|\\*)?\\d+(?:\\s*[-\u2013\u2014]+\\s*\\*?\\d+)?(?:\\s*(?:&|and)?\\s*nn?\\.\\s*\\d+(?:[-\u2013\u2014]+\\d+)?)?'
/** what may follow a pin cite introduced by a bare comma (so ', 135 S. Ct.' is not a pin) */
const PIN_END = '(?=\\s*[,;.:)\\]]|\\s*[(\\[]|\\s*$|\\s+(?:n|nn)\\.)'
const PIN_COMMA_RE = new RegExp(`,\\s*(?:at\\s+)?(${PIN_ITEM}(?:\\s*,\\s*${PIN_ITEM}${PIN_END})*)${PIN_END}`, 'y')
const PIN_AT_RE = new RegExp(`,?\\s+at\\s+(${PIN_ITEM}(?:\\s*,\\s*${PIN_ITEM}${PIN_END})*)(?![\\w])`, 'y')
const PIN_PARA_RE = new RegExp(`,?\\s+((?:¶¶?|§§?)\\s*\\d+(?:\\s*[-\u2013\u2014]+\\s*\\d+)?)(?![\\w])`, 'y')

function parsePin(t: string, at: number, allowComma: boolean): { pin: string; end: number } | null {
  const res: RegExp[] = allowComma ? [PIN_AT_RE, PIN_COMMA_RE] : [PIN_AT_RE, PIN_PARA_RE]
  for (const re of res) {
    re.lastIndex = at
    const m = re.exec(t)
    if (m) return { pin: m[1].replace(/\s+/g, ' ').trim(), end: at + m[0].length }
  }
  return null
}

const MONTH = '(?:Jan|Feb|Mar|Apr|May|June?|July?|Aug|Sept?|Oct|Nov|Dec)[a-z]*\\.?'
const YEAR_PAREN_RE = new RegExp(`^([^]*?)[\\s,]*(?:${MONTH}\\s+\\d{1,2},?\\s*)?(1[6-9]\\d\\d|20\\d\\d)\\s*$`)

/** The parenthesised text starting at t[open] === '(' (balanced, at most 800 chars), or null. */
function readParen(t: string, open: number): { inner: string; end: number } | null {
  let depth = 0
  const lim = Math.min(t.length, open + 800)
  for (let k = open; k < lim; k++) {
    const c = t.charCodeAt(k)
    if (c === 40) depth++
    else if (c === 41) { depth--; if (depth === 0) return { inner: t.slice(open + 1, k), end: k + 1 } }
  }
  return null
}

interface AfterInfo { pinCite?: string; year?: number; courtText?: string; court?: string; parenthetical?: string; end: number }

/** Pin cite, court/year parenthetical and explanatory parenthetical after a citation ending at `at`. */
function parseAfter(t: string, at: number, withPin: boolean): AfterInfo {
  const info: AfterInfo = { end: at }
  let pos = at
  if (withPin) {
    const p = parsePin(t, pos, true)
    if (p) { info.pinCite = p.pin; pos = info.end = p.end }
  }
  for (let round = 0; round < 3; round++) {
    let k = pos
    while (k < t.length && (t.charCodeAt(k) === 32 || t.charCodeAt(k) === 9 || t.charCodeAt(k) === 10 || t.charCodeAt(k) === 13 || t.charCodeAt(k) === 0xa0)) k++
    if (t.charCodeAt(k) !== 40) break
    const p = readParen(t, k)
    if (!p) break
    const inner = p.inner.replace(/\s+/g, ' ').trim()
    const ym = info.year === undefined ? YEAR_PAREN_RE.exec(inner) : null
    if (ym && ym[1].length <= 80 && !/[()]/.test(ym[1])) {
      info.year = Number(ym[2])
      const courtText = ym[1].replace(/[\s,]+$/, '').trim()
      if (courtText) {
        info.courtText = courtText
        const id = courtIdFor(courtText)
        if (id) info.court = id
      }
    } else if (info.parenthetical === undefined) {
      info.parenthetical = inner
    } else break
    pos = info.end = p.end
  }
  return info
}

// ---------------------------------------------------------------------------------------------
// editions

const SCOTUS_FAMILIES = new Set(['U.S.', 'S. Ct.', 'L. Ed.'])

function inRange(r: EditionRef, year: number): boolean {
  return (r.startYear === null || r.startYear <= year) && (r.endYear === null || year <= r.endYear)
}

/** The edition the citation most likely means: dates containing the year first, then the edition
 *  spelled exactly as written, then data order. */
export function chooseEdition(refs: EditionRef[], written: string, year?: number): EditionRef {
  let pool = refs
  if (year !== undefined) {
    const f = refs.filter((r) => inRange(r, year))
    if (f.length) pool = f
  }
  const w = normKey(written)
  return pool.find((r) => r.norm === w) ?? pool[0]
}

function finish(raw: Raw): FoundCitation {
  const c = raw.cit
  if (raw.refs.length === 0) return c
  const chosen = chooseEdition(raw.refs, raw.written, c.year)
  const ordered = [chosen, ...raw.refs.filter((r) => r !== chosen)]
  const seen = new Set<string>()
  const candidates: CitationCandidate[] = []
  for (const r of ordered) {
    const k = r.canonical + '\u0000' + r.name
    if (seen.has(k)) continue
    seen.add(k)
    candidates.push({ reporter: r.canonical, name: r.name, cite_type: r.cite_type })
  }
  c.candidates = candidates
  c.reporter = chosen.canonical
  const norm = new Set<string>()
  for (const r of ordered) norm.add(normalizedOf(c, raw.ownReporter ? raw.written : r.canonical))
  c.normalized = [...norm]
  if (c.kind === 'full_case' || c.kind === 'short_case') {
    if (c.court === undefined && SCOTUS_FAMILIES.has(chosen.family)) c.court = 'scotus'
  }
  return c
}

function normalizedOf(c: FoundCitation, canonical: string): string {
  if (c.kind === 'law' && c.section !== undefined) return `${c.title ?? c.volume ?? ''} ${canonical} § ${c.section}`.trim()
  if (c.kind === 'short_case') return `${c.volume ?? ''} ${canonical}, at ${c.pinCite ?? ''}`.trim()
  return [c.volume, canonical, c.page].filter((x) => x !== undefined && x !== '').join(' ')
}

const OPTIONAL_BEFORE = ['volume', 'reporter', 'page', 'reporterFound', 'pinCite', 'court', 'courtText', 'year', 'parenthetical', 'antecedent', 'title', 'section'] as const

/** Same citation with its fields in a fixed, readable order and no undefined fields. */
function tidy(c: FoundCitation): FoundCitation {
  const o: Record<string, unknown> = { kind: c.kind, matchedText: c.matchedText, start: c.start, end: c.end, fullEnd: c.fullEnd }
  for (const k of OPTIONAL_BEFORE) if (c[k] !== undefined) o[k] = c[k]
  o.candidates = c.candidates
  o.normalized = c.normalized
  if (c.extra !== undefined) o.extra = c.extra
  return o as unknown as FoundCitation
}

// ---------------------------------------------------------------------------------------------
// the pass

interface Hit { s: number; e: number; plan: Plan; groups: Record<string, string> }

const SUBSECTION_RE = /(?:\((?:[a-zA-Z]{1,4}|\d{1,3})\))+(?![\w])/y
const KIND_RANK: Record<string, number> = { case: 0, law: 1, journal: 2 }
const STD_GROUPS = new Set(['volume', 'page', 'reporter', 'pin', '__pre', 'title', 'section', 'chapter'])

// per-position cache of prefix look-behind results, indexed by Pattern.preId
let preGen = 0
let preStamp = new Int32Array(0)
let preVal: (RegExpExecArray | null)[] = []

function tryStrings(t: string, i: number, terms: TrieHits, minStart: number, preCount: number): Raw | null {
  if (preStamp.length < preCount) { preStamp = new Int32Array(preCount); preVal = new Array(preCount).fill(null) }
  preGen = (preGen + 1) | 0
  for (let k = 0; k < terms.n; k++) {
    const anchorEnd = terms.end[k]
    const rs = terms.rs[k]
    let best: Hit | null = null
    let hits: Hit[] | null = null
    for (const plan of rs.plans) {
      const p = plan.pattern
      let s = i
      let m: RegExpExecArray | null = null
      if (p.pre) {
        if (preStamp[p.preId] === preGen) m = preVal[p.preId]
        else {
          p.pre.lastIndex = i
          m = p.pre.exec(t)
          preStamp[p.preId] = preGen
          preVal[p.preId] = m
        }
        if (!m) continue
        s = i - (m.groups?.__pre?.length ?? 0)
      } else if (i > 0 && isAlnum(t.charCodeAt(i - 1))) continue
      if (s < minStart) continue
      p.post.lastIndex = p.atStart ? i : anchorEnd
      const m2 = p.post.exec(t)
      if (!m2) continue
      const e = p.post.lastIndex
      const groups: Record<string, string> = {}
      if (m?.groups) for (const key in m.groups) { const v = m.groups[key]; if (v !== undefined) groups[key] = v }
      if (m2.groups) for (const key in m2.groups) { const v = m2.groups[key]; if (v !== undefined && groups[key] === undefined) groups[key] = v }
      const hit = { s, e, plan, groups }
      if (!hits) hits = []
      hits.push(hit)
      if (!best || rank(hit) < rank(best)) best = hit
    }
    if (!best) continue
    const b = best
    const bestKind = kindOf(b)
    const refs: EditionRef[] = []
    for (const h of hits!) {
      if (h.s !== b.s || h.e !== b.e || h.plan.pattern.short !== b.plan.pattern.short) continue
      for (const r of h.plan.refs) if (r.kind === bestKind && !refs.includes(r)) refs.push(r)
    }
    const g = b.groups
    if (bestKind === 'law' && g.section !== undefined) {
      // subsections the data's section regex leaves out: '§ 922(g)(1)', '§ 1630.2(h)'
      SUBSECTION_RE.lastIndex = b.e
      const sm = SUBSECTION_RE.exec(t)
      if (sm) { g.section += sm[0]; b.e += sm[0].length }
    }
    const written = (g.reporter ?? t.slice(i, anchorEnd)).replace(/\s+/g, ' ').trim()
    const kind: CitationKind = bestKind === 'law' ? 'law' : bestKind === 'journal' ? 'journal' : b.plan.pattern.short ? 'short_case' : 'full_case'
    const cit: FoundCitation = {
      kind, matchedText: t.slice(b.s, b.e), start: b.s, end: b.e, fullEnd: b.e,
      reporterFound: written, candidates: [], normalized: [],
    }
    if (g.volume !== undefined) cit.volume = g.volume
    if (g.page !== undefined) cit.page = g.page
    if (kind === 'law') {
      const title = g.title ?? g.chapter
      if (title !== undefined) cit.title = title
      if (g.section !== undefined) cit.section = g.section
    }
    const extra: Record<string, string> = {}
    for (const [k, v] of Object.entries(g)) if (!STD_GROUPS.has(k)) extra[k] = v
    if (g.chapter !== undefined && g.title !== undefined) extra.chapter = g.chapter
    if (Object.keys(extra).length) cit.extra = extra
    let after: AfterInfo
    if (kind === 'short_case') {
      cit.pinCite = g.pin
      after = parseAfter(t, b.e, false)
    } else after = parseAfter(t, b.e, true)
    applyAfter(cit, after)
    return { cit, refs, written, ownReporter: b.plan.pattern.atStart }
  }
  return null
}

/** Lower is better: longest span, then full before short forms, then case before law before journal. */
function rank(h: Hit): number {
  return -(h.e - h.s) * 8 + (h.plan.pattern.short ? 4 : 0) + KIND_RANK[kindOf(h)]
}
function kindOf(h: Hit): 'case' | 'law' | 'journal' {
  let k: 'case' | 'law' | 'journal' = 'journal'
  for (const r of h.plan.refs) if (KIND_RANK[r.kind] < KIND_RANK[k]) k = r.kind
  return k
}

function applyAfter(cit: FoundCitation, a: AfterInfo) {
  if (a.pinCite !== undefined && cit.pinCite === undefined) cit.pinCite = a.pinCite
  if (a.year !== undefined) cit.year = a.year
  if (a.courtText !== undefined) cit.courtText = a.courtText
  if (a.court !== undefined) cit.court = a.court
  if (a.parenthetical !== undefined) cit.parenthetical = a.parenthetical
  cit.fullEnd = Math.max(cit.fullEnd, a.end)
}

const ID_RE = /(?:[Ii]bid|[Ii]d)\.(?![A-Za-z0-9])/y
const SUPRA_RE = /supra(?![A-Za-z0-9])/y
const SUPRA_NOTE_RE = /,?\s+(?:note|n\.)\s*(\d+)/y
const ANTECEDENT_RE = /([A-Za-z][\w'\u2019\-&]*\.?)\s*,?\s*$/

function matchId(t: string, i: number): Raw | null {
  ID_RE.lastIndex = i
  const m = ID_RE.exec(t)
  if (!m) return null
  const end = i + m[0].length
  const cit: FoundCitation = { kind: 'id', matchedText: m[0], start: i, end, fullEnd: end, candidates: [], normalized: [] }
  const p = parsePin(t, end, false)
  if (p) { cit.pinCite = p.pin; cit.fullEnd = p.end }
  const after = parseAfter(t, cit.fullEnd, false)
  if (after.parenthetical !== undefined) { cit.parenthetical = after.parenthetical; cit.fullEnd = after.end }
  return { cit, refs: [], written: '' }
}

function matchSupra(t: string, i: number): Raw | null {
  SUPRA_RE.lastIndex = i
  const m = SUPRA_RE.exec(t)
  if (!m) return null
  const end = i + m[0].length
  const cit: FoundCitation = { kind: 'supra', matchedText: m[0], start: i, end, fullEnd: end, candidates: [], normalized: [] }
  const a = ANTECEDENT_RE.exec(t.slice(Math.max(0, i - 60), i))
  if (a && !/^(?:see|See|cf|Cf|also|and|e\.g\.|accord)$/.test(a[1])) cit.antecedent = a[1]
  let pos = end
  SUPRA_NOTE_RE.lastIndex = pos
  const nm = SUPRA_NOTE_RE.exec(t)
  if (nm) { cit.extra = { note: nm[1] }; pos = nm.index + nm[0].length }
  const p = parsePin(t, pos, false)
  if (p) { cit.pinCite = p.pin; pos = p.end }
  cit.fullEnd = pos
  return { cit, refs: [], written: '' }
}

const hits = newHits()

/** Extracts citations from plain text; offsets are into `t`. */
export function extractFromPlain(t: string): FoundCitation[] {
  const m = getMatcher()
  const starts = m.startChars
  const raws: Raw[] = []
  const terms = hits
  const n = t.length
  let minStart = 0
  // a law cite's optional trailing ', <number>' may really be the volume of the next citation
  // ('Pub. L. No. 111-148, 124 Stat. 119'): the next citation may start there and trims it
  let stealFrom = -1
  for (let i = 0; i < n; i++) {
    const c = t.charCodeAt(i)
    const isIdChar = c === 73 || c === 105
    if (!starts[c] && !isIdChar && c !== 115) continue
    if (i > 0 && BLOCK_PREV[t.charCodeAt(i - 1)]) continue
    let r: Raw | null = null
    if (isIdChar) { const c1 = t.charCodeAt(i + 1); if (c1 === 100 || c1 === 98) r = matchId(t, i) }
    else if (c === 115 && t.charCodeAt(i + 1) === 117) r = matchSupra(t, i)
    if (!r && starts[c]) {
      walkTrie(m.trie, t, i, terms)
      if (terms.n) {
        r = tryStrings(t, i, terms, stealFrom >= 0 ? stealFrom : minStart, m.preCount)
        if (r && r.cit.start < minStart) trimTail(t, raws[raws.length - 1].cit, r.cit.start)
      }
    }
    if (r) {
      raws.push(r)
      minStart = r.cit.end
      stealFrom = -1
      if (r.cit.kind === 'law') {
        const tail = /,\s*(\d+)$/.exec(r.cit.matchedText)
        if (tail) stealFrom = r.cit.start + tail.index + tail[0].length - tail[1].length
      }
      i = r.cit.end - 1
    }
  }
  inheritFromParallels(t, raws)
  return raws.map((r) => tidy(finish(r)))
}

/** Cuts a law citation back to before the ', <number>' that the next citation starts with. */
function trimTail(t: string, c: FoundCitation, nextStart: number) {
  let e = nextStart
  while (e > c.start && /[\s,]/.test(t[e - 1])) e--
  const cut = t.slice(e, c.end)
  c.end = c.fullEnd = e
  c.matchedText = t.slice(c.start, e)
  if (c.section !== undefined && cut.replace(/[\s,]/g, '') === c.section) delete c.section
}

/** `576 U.S. 644, 135 S. Ct. 2584 (2015)`: a case citation followed only by ', ' and another full
 *  case citation takes that one's year, court and parenthetical when it has none of its own. */
function inheritFromParallels(t: string, raws: Raw[]) {
  for (let k = raws.length - 2; k >= 0; k--) {
    const a = raws[k].cit
    const b = raws[k + 1].cit
    if (a.kind !== 'full_case' || b.kind !== 'full_case' || a.year !== undefined) continue
    if (!/^\s*,\s*$/.test(t.slice(a.fullEnd, b.start))) continue
    if (b.year !== undefined) a.year = b.year
    if (b.court !== undefined && a.court === undefined) a.court = b.court
    if (b.courtText !== undefined && a.courtText === undefined) a.courtText = b.courtText
    if (b.parenthetical !== undefined && a.parenthetical === undefined) a.parenthetical = b.parenthetical
  }
}
