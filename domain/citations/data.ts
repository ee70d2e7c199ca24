/**
 * Loading and compiling the reporter databases (data/reporters/*.json, BSD-licensed, see
 * data/reporters/LICENSE) into one matcher.
 *
 * Everything here runs once, lazily, at the first call of `getMatcher()`:
 *  - every reporter edition key, reporter variation, law key/variation and journal key/variation
 *    goes into ONE character trie (whitespace-tolerant, see `walkTrie`);
 *  - every regex template ("$full_cite", per-edition `regexes`, law `regexes`) is expanded with
 *    the named fragments of regexes.json and split around `$reporter` into a prefix (compiled as a
 *    sticky look-behind run AT the reporter's start) and a suffix (a sticky regex run AT the
 *    reporter's end). Identical templates share one compiled pattern.
 * At extraction time the text is scanned once; at each position where the trie finds a reporter
 * string, only the handful of patterns that string's editions own are tried, anchored there.
 */
import { readFileSync } from 'node:fs'

export type SourceKind = 'case' | 'law' | 'journal'

/** One canonical edition (case reporter edition, law code or journal) a written string can mean. */
export interface EditionRef {
  kind: SourceKind
  /** canonical key: edition abbreviation ('F.3d'), law key ('U.S.C.') or journal key */
  canonical: string
  /** `canonical` through normKey */
  norm: string
  name: string
  cite_type: string
  /** first and last year of the edition's date range (inclusive); null = open */
  startYear: number | null
  endYear: number | null
  /** key of the reporter family in reporters.json ('F.' for 'F.3d'); the canonical key otherwise */
  family: string
  patterns: Pattern[]
}

export interface Pattern {
  id: number
  /** template as written in the data, for diagnostics */
  template: string
  /** sticky zero-width look-behind matched at the anchor start; group `__pre` is the prefix text; null = no prefix.
   *  Patterns with the same prefix share one RegExp (and `preId`), so its result is computed once per position. */
  pre: RegExp | null
  preId: number
  /** sticky regex matched at the anchor end (or at the anchor start when `atStart`) */
  post: RegExp
  /** the pattern names the reporter with its own `(?<reporter>…)` group, so `post` starts at the anchor start */
  atStart: boolean
  /** generated short form `volume reporter, at pin` */
  short: boolean
}

export interface Plan {
  pattern: Pattern
  refs: EditionRef[]
}

/** A string that can be found in text (a reporter abbreviation, variation, law or journal name). */
export interface ReporterString {
  text: string
  refs: EditionRef[]
  /** refs whose name or variation this string is (not merely the literal head of a pattern) */
  named: EditionRef[]
  /** distinct patterns of `refs`, in data order, each with the refs that own it */
  plans: Plan[]
}

export interface TrieNode {
  next: Map<number, TrieNode>
  term: ReporterString | null
}

export interface Matcher {
  trie: CompactTrie
  /** 1 where a char code can start a trie match */
  startChars: Uint8Array
  /** whitespace-collapsed, quote-normalised string → ReporterString */
  strings: Map<string, ReporterString>
  /** same, keyed with all whitespace removed (lenient lookup for normalizeReporter) */
  compact: Map<string, ReporterString[]>
  editionCount: number
  patternCount: number
  /** number of distinct prefix regexes (Pattern.preId < preCount) */
  preCount: number
  /** templates that could not be compiled (reported, never thrown) */
  skipped: { template: string; reason: string }[]
}

const dataUrl = (file: string) => new URL(`../../data/${file}`, import.meta.url)
const readJson = (file: string): unknown => JSON.parse(readFileSync(dataUrl(file), 'utf8'))

// ---------------------------------------------------------------------------------------------
// regex fragments

/** Flattens regexes.json: nested keys joined with '_', '' names the parent, '#' keys are comments;
 *  every name also gets a `<name>_optional` = `(?:<value> ?)?` variant. */
export function flattenVariables(obj: Record<string, unknown>, prefix = '', out: Map<string, string> = new Map()): Map<string, string> {
  for (const [k, v] of Object.entries(obj)) {
    if (k.endsWith('#')) continue
    const name = k === '' ? prefix.replace(/_$/, '') : prefix + k
    if (typeof v === 'string') out.set(name, v)
    else if (v && typeof v === 'object') flattenVariables(v as Record<string, unknown>, name + '_', out)
  }
  if (prefix === '') for (const [k, v] of [...out]) if (!out.has(k + '_optional')) out.set(k + '_optional', `(?:${v} ?)?`)
  return out
}

const REPORTER_MARK = '\u0001'

/** Expands `$name` references (the longest defined name wins), leaving `$reporter` as a marker. */
export function expandTemplate(tpl: string, vars: Map<string, string>): string {
  let s = tpl
  for (let depth = 0; depth < 12 && s.includes('$'); depth++) {
    s = s.replace(/\$([A-Za-z0-9_]+)/g, (whole, name: string) => {
      if (name === 'reporter') return REPORTER_MARK
      for (let n = name; n.length > 0; n = n.slice(0, -1)) {
        if (n === 'reporter') return REPORTER_MARK + name.slice(n.length)
        const v = vars.get(n)
        if (v !== undefined) return v + name.slice(n.length)
      }
      return whole
    })
  }
  return s
}

/** Python `re` syntax → JavaScript, and literal spaces → whitespace runs (outside classes). */
export function toJsRegexSource(src: string): string {
  let out = ''
  let inClass = false
  for (let i = 0; i < src.length; i++) {
    const c = src[i]
    if (c === '\\') { out += c + (src[i + 1] ?? ''); i++; continue }
    if (inClass) { if (c === ']') inClass = false; out += c; continue }
    if (c === '[') { inClass = true; out += c; if (src[i + 1] === ']') { out += ']'; i++ } continue }
    if (c === '(' && src.startsWith('(?P<', i)) { out += '(?<'; i += 3; continue }
    if (c === '(' && src.startsWith('(?P=', i)) {
      const close = src.indexOf(')', i)
      out += `\\k<${src.slice(i + 4, close)}>`; i = close; continue
    }
    if (c === '{' && src[i + 1] === ',') { out += '{0'; continue }
    if (c === ' ') {
      const q = src[i + 1]
      if (q === '?' || q === '*') { out += '\\s*'; i++; continue }
      if (q === '+') { out += '\\s+'; i++; continue }
      out += '\\s+'; continue
    }
    out += c
  }
  return out
}

/** The literal text a `(?<reporter>…)` group starts with, e.g. 'Cal.' for `Cal\. (?<subject>…) Code`. */
function literalHead(src: string): string {
  let out = ''
  for (let i = 0; i < src.length; i++) {
    const c = src[i]
    const quantified = (j: number) => src[j] === '?' || src[j] === '*' || src[j] === '{'
    if (c === '\\') {
      const n = src[i + 1]
      if (n === 's') { if (quantified(i + 2)) break; out += ' '; i++; if (src[i + 1] === '+') i++; continue }
      if (n && /[^\w]/.test(n)) { if (quantified(i + 2)) break; out += n; i++; continue }
      break
    }
    if ('()[]{}?*+|^$.'.includes(c) || quantified(i + 1)) break
    out += c
  }
  return out.trim()
}

const PRE_BOUNDARY = '(?<![\\w\\-/.,])'
const POST_BOUNDARY = '(?![\\w])'

interface CompiledParts { pre: string | null; post: string; atStart: boolean; anchor: string | null }

function splitTemplate(expanded: string): CompiledParts | null {
  const js = toJsRegexSource(expanded)
  const mark = js.indexOf(REPORTER_MARK)
  if (mark >= 0) {
    if (js.indexOf(REPORTER_MARK, mark + 1) >= 0) return null
    const pre = js.slice(0, mark)
    return { pre: pre === '' ? null : pre, post: js.slice(mark + 1), atStart: false, anchor: null }
  }
  const g = js.indexOf('(?<reporter>')
  if (g >= 0) {
    const pre = js.slice(0, g)
    const anchor = literalHead(js.slice(g + '(?<reporter>'.length))
    if (!anchor) return null
    return { pre: pre === '' ? null : pre, post: js.slice(g), atStart: true, anchor }
  }
  return null
}

// ---------------------------------------------------------------------------------------------
// trie

/** Normalises a data string for the trie: whitespace runs → one space, curly quotes → straight. */
export function normKey(s: string): string {
  return s.replace(/[\u2018\u2019\u02BC]/g, "'").replace(/\s+/g, ' ').trim()
}

function trieInsert(root: TrieNode, key: string, rs: ReporterString) {
  let node = root
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i)
    let nx = node.next.get(c)
    if (!nx) { nx = { next: new Map(), term: null }; node.next.set(c, nx) }
    node = nx
  }
  node.term = rs
}

/** Same set as the regex class `\s`. */
export function isSpaceCode(c: number): boolean {
  if (c > 32 && c < 0xa0) return false
  return c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
}

function foldChar(c: number): number {
  return c === 0x2019 || c === 0x2018 || c === 0x02bc ? 39 : c
}

/** The trie flattened into typed arrays (children as sorted edge lists) for a fast walk. */
export interface CompactTrie {
  edgeStart: Int32Array
  edgeCount: Uint16Array
  edgeChar: Uint16Array
  edgeTo: Int32Array
  /** index into `strings` of the string ending at a node, -1 for none */
  term: Int32Array
  strings: ReporterString[]
  /** node reached from each node by a space edge, -1 for none (cached: it is looked up often) */
  space: Int32Array
}

function compactTrie(root: TrieNode): CompactTrie {
  const nodes: TrieNode[] = []
  const ids = new Map<TrieNode, number>()
  const stack = [root]
  while (stack.length) {
    const n = stack.pop()!
    ids.set(n, nodes.length)
    nodes.push(n)
    for (const c of n.next.values()) stack.push(c)
  }
  let edges = 0
  for (const n of nodes) edges += n.next.size
  const t: CompactTrie = {
    edgeStart: new Int32Array(nodes.length), edgeCount: new Uint16Array(nodes.length),
    edgeChar: new Uint16Array(edges), edgeTo: new Int32Array(edges), term: new Int32Array(nodes.length).fill(-1),
    strings: [], space: new Int32Array(nodes.length).fill(-1),
  }
  let e = 0
  nodes.forEach((n, id) => {
    t.edgeStart[id] = e
    t.edgeCount[id] = n.next.size
    for (const [c, child] of [...n.next].sort((a, b) => a[0] - b[0])) {
      t.edgeChar[e] = c
      t.edgeTo[e] = ids.get(child)!
      if (c === 32) t.space[id] = ids.get(child)!
      e++
    }
    if (n.term) { t.term[id] = t.strings.length; t.strings.push(n.term) }
  })
  return t
}

function child(t: CompactTrie, node: number, c: number): number {
  let lo = t.edgeStart[node]
  let hi = lo + t.edgeCount[node]
  if (hi - lo <= 8) {
    for (; lo < hi; lo++) { const x = t.edgeChar[lo]; if (x === c) return t.edgeTo[lo]; if (x > c) return -1 }
    return -1
  }
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    const x = t.edgeChar[mid]
    if (x === c) return t.edgeTo[mid]
    if (x < c) lo = mid + 1
    else hi = mid
  }
  return -1
}

/** Reusable result buffer of `walkTrie`: `n` hits, `end[k]` text index after hit k, `rs[k]` its string. */
export interface TrieHits { n: number; end: Int32Array; rs: ReporterString[] }
export const newHits = (): TrieHits => ({ n: 0, end: new Int32Array(64), rs: new Array(64) })

/**
 * Every trie string that matches `text` starting at `pos`, longest first, into `out`.
 * Whitespace in a key matches one or more whitespace characters; right after a '.' a key's space
 * may be missing from the text ('S.Ct.' finds 'S. Ct.') and a space in the text may be missing
 * from the key ('F. Supp.3d' finds 'F.Supp.3d').
 */
export function walkTrie(t: CompactTrie, text: string, pos: number, out: TrieHits): void {
  out.n = 0
  visit(t, text, pos, 0, pos, false, 0, out)
  const n = out.n
  if (n > 1) {
    // insertion sort by end, descending; drop duplicates reached through different whitespace paths
    for (let a = 1; a < n; a++) {
      const e = out.end[a]
      const r = out.rs[a]
      let b = a - 1
      while (b >= 0 && out.end[b] < e) { out.end[b + 1] = out.end[b]; out.rs[b + 1] = out.rs[b]; b-- }
      out.end[b + 1] = e
      out.rs[b + 1] = r
    }
    let w = 1
    for (let a = 1; a < n; a++) if (out.end[a] !== out.end[w - 1] || out.rs[a] !== out.rs[w - 1]) { out.end[w] = out.end[a]; out.rs[w] = out.rs[a]; w++ }
    out.n = w
  }
}

function push(out: TrieHits, end: number, rs: ReporterString) {
  if (out.n < out.end.length) { out.end[out.n] = end; out.rs[out.n] = rs; out.n++ }
}

function visit(t: CompactTrie, text: string, pos: number, node: number, i: number, prevDot: boolean, depth: number, out: TrieHits): void {
  const n = text.length
  for (;;) {
    const term = t.term[node]
    if (term >= 0 && i > pos) push(out, i, t.strings[term])
    if (i >= n || depth > 80) return
    const raw = text.charCodeAt(i)
    if (raw === 32 || isSpaceCode(raw)) {
      let j = i + 1
      while (j < n && isSpaceCode(text.charCodeAt(j))) j++
      const sp = t.space[node]
      if (sp >= 0) { node = sp; i = j; prevDot = false; depth++; continue }
      if (prevDot && j < n) {
        const c2 = foldChar(text.charCodeAt(j))
        const nx = child(t, node, c2)
        if (nx >= 0) { node = nx; i = j + 1; prevDot = c2 === 46; depth++; continue }
      }
      return
    }
    const c = raw === 0x2019 || raw === 0x2018 || raw === 0x02bc ? 39 : raw
    const nx = child(t, node, c)
    if (prevDot) {
      const sp = t.space[node]
      const nx2 = sp >= 0 ? child(t, sp, c) : -1
      if (nx2 >= 0) {
        if (nx >= 0) visit(t, text, pos, nx, i + 1, c === 46, depth + 1, out)
        node = nx2; i = i + 1; prevDot = c === 46; depth += 2; continue
      }
    }
    if (nx < 0) return
    node = nx; i = i + 1; prevDot = c === 46; depth++
  }
}

// ---------------------------------------------------------------------------------------------
// building

const yearOf = (d: unknown): number | null => (typeof d === 'string' && /^\d{4}/.test(d) ? Number(d.slice(0, 4)) : null)

interface RawReporter {
  name: string
  cite_type: string
  editions: Record<string, { start: string | null; end: string | null; regexes?: string[] }>
  variations?: Record<string, string>
  examples?: string[]
}
interface RawLaw {
  name: string
  cite_type: string
  start: string | null
  end: string | null
  regexes: string[]
  variations: string[]
  examples: string[]
}

let matcher: Matcher | null = null

/** The compiled matcher, built at first use. */
export function getMatcher(): Matcher {
  if (!matcher) matcher = buildMatcher()
  return matcher
}

function buildMatcher(): Matcher {
  const vars = flattenVariables(readJson('reporters/regexes.json') as Record<string, unknown>)
  const reporters = readJson('reporters/reporters.json') as Record<string, RawReporter[]>
  const laws = readJson('reporters/laws.json') as Record<string, RawLaw[]>
  const journals = readJson('reporters/journals.json') as Record<string, RawLaw[]>

  const skipped: { template: string; reason: string }[] = []
  const patternCache = new Map<string, { pattern: Pattern; anchor: string | null } | null>()
  let nextId = 0
  const preBySource = new Map<string, { re: RegExp; id: number }>()
  const compile = (template: string, short = false): { pattern: Pattern; anchor: string | null } | null => {
    const cacheKey = (short ? 'S:' : '') + template
    if (patternCache.has(cacheKey)) return patternCache.get(cacheKey)!
    let result: { pattern: Pattern; anchor: string | null } | null = null
    try {
      const parts = splitTemplate(expandTemplate(template, vars))
      if (!parts) skipped.push({ template, reason: 'no $reporter / (?P<reporter>) anchor' })
      else if (/\$[a-z]/.test((parts.pre ?? '') + parts.post)) skipped.push({ template, reason: 'undefined $variable' })
      else {
        let pre: RegExp | null = null
        let preId = -1
        if (parts.pre !== null) {
          const src = `(?<=${PRE_BOUNDARY}(?<__pre>${parts.pre}))`
          let shared = preBySource.get(src)
          if (!shared) { shared = { re: new RegExp(src, 'y'), id: preBySource.size }; preBySource.set(src, shared) }
          pre = shared.re
          preId = shared.id
        }
        const post = new RegExp(parts.post + POST_BOUNDARY, 'y')
        result = { pattern: { id: nextId++, template, pre, preId, post, atStart: parts.atStart, short }, anchor: parts.anchor }
      }
    } catch (e) {
      skipped.push({ template, reason: (e as Error).message })
    }
    patternCache.set(cacheKey, result)
    return result
  }

  // string → (ref, patterns that run when this string is found)
  const strings = new Map<string, ReporterString>()
  const addString = (raw: string, ref: EditionRef, patterns: Pattern[], isName = true) => {
    const key = normKey(raw)
    if (!key) return
    let rs = strings.get(key)
    if (!rs) { rs = { text: key, refs: [], named: [], plans: [] }; strings.set(key, rs) }
    if (isName && !rs.named.includes(ref)) rs.named.push(ref)
    if (patterns.length && !rs.refs.includes(ref)) rs.refs.push(ref)
    for (const p of patterns) {
      let plan = rs.plans.find((x) => x.pattern === p)
      if (!plan) { plan = { pattern: p, refs: [] }; rs.plans.push(plan) }
      if (!plan.refs.includes(ref)) plan.refs.push(ref)
    }
  }
  /** compiles a ref's templates; returns the patterns run on its names and those run on literal anchors */
  const compileAll = (ref: EditionRef, templates: string[], extra: string[] = []) => {
    const named: Pattern[] = []
    const anchored: [string, Pattern][] = []
    for (const t of templates) {
      const c = compile(t)
      if (!c) continue
      ref.patterns.push(c.pattern)
      if (c.pattern.atStart) anchored.push([c.anchor!, c.pattern])
      else named.push(c.pattern)
    }
    for (const t of extra) {
      const c = compile(t, true)
      if (c) { ref.patterns.push(c.pattern); named.push(c.pattern) }
    }
    return { named, anchored }
  }

  const SHORT = '$volume $reporter,? at (?P<pin>\\*?\\d+(?:[-\u2013\u2014]+\\d+)?)'
  let editionCount = 0
  // case reporters
  for (const [family, list] of Object.entries(reporters)) {
    for (const rep of list) {
      const byEdition = new Map<string, { ref: EditionRef; named: Pattern[] }>()
      for (const [ek, ed] of Object.entries(rep.editions)) {
        const templates = ed.regexes && ed.regexes.length ? ed.regexes : ['$full_cite']
        const ref: EditionRef = {
          kind: 'case', canonical: ek, norm: normKey(ek), name: rep.name, cite_type: rep.cite_type,
          startYear: yearOf(ed.start), endYear: yearOf(ed.end), family, patterns: [],
        }
        const { named, anchored } = compileAll(ref, templates, [SHORT])
        byEdition.set(ek, { ref, named })
        editionCount++
        addString(ek, ref, named)
        for (const [a, p] of anchored) addString(a, ref, [p], false)
      }
      for (const [variation, ek] of Object.entries(rep.variations ?? {})) {
        const e = byEdition.get(ek)
        if (e) addString(variation, e.ref, e.named)
      }
    }
  }
  // laws and journals
  const addOthers = (db: Record<string, RawLaw[]>, kind: SourceKind) => {
    for (const [key, list] of Object.entries(db)) {
      for (const law of list) {
        const templates = law.regexes && law.regexes.length ? law.regexes : ['$full_cite']
        const ref: EditionRef = {
          kind, canonical: key, norm: normKey(key), name: law.name, cite_type: law.cite_type,
          startYear: yearOf(law.start), endYear: yearOf(law.end), family: key, patterns: [],
        }
        const { named, anchored } = compileAll(ref, templates)
        editionCount++
        addString(key, ref, named)
        for (const v of law.variations ?? []) addString(v, ref, named)
        for (const [a, p] of anchored) addString(a, ref, [p], false)
      }
    }
  }
  addOthers(laws, 'law')
  addOthers(journals, 'journal')

  // trie, start characters, lenient index
  const root: TrieNode = { next: new Map(), term: null }
  const startChars = new Uint8Array(65536)
  const compact = new Map<string, ReporterString[]>()
  for (const rs of strings.values()) {
    trieInsert(root, rs.text, rs)
    startChars[rs.text.charCodeAt(0)] = 1
    if (rs.text.charCodeAt(0) === 39) { startChars[0x2019] = 1; startChars[0x2018] = 1 }
    const ck = rs.text.replace(/\s+/g, '')
    const arr = compact.get(ck)
    if (arr) arr.push(rs)
    else compact.set(ck, [rs])
  }
  return { trie: compactTrie(root), startChars, strings, compact, editionCount, patternCount: nextId, preCount: preBySource.size, skipped }
}

