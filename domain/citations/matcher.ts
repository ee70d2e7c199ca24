/**
 * The one citation matcher compiled from the reporter databases, built lazily at the first call of
 * `getMatcher()`: every edition, law and journal with its patterns, and every string that names
 * one in a trie. At extraction time the text is scanned once; at each position where the trie
 * finds a reporter string, only the handful of patterns that string's editions own are tried.
 */
import { loadReporterData, type RawLaw } from './reporter-data.js'
import type { EditionRef, Pattern, ReporterString, SourceKind } from './reporter-types.js'
import { flattenVariables, patternCompiler } from './templates.js'
import { buildTrie, normKey, type CompactTrie } from './trie.js'

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

/** The short form every case edition gets besides its own templates: `volume reporter, at pin`. */
const SHORT_FORM = '$volume $reporter,? at (?P<pin>\\*?\\d+(?:[-\u2013\u2014]+\\d+)?)'

const yearOf = (d: unknown): number | null => (typeof d === 'string' && /^\d{4}/.test(d) ? Number(d.slice(0, 4)) : null)

let matcher: Matcher | null = null

/** The compiled matcher, built at first use. */
export function getMatcher(): Matcher {
  if (!matcher) matcher = buildMatcher()
  return matcher
}

function buildMatcher(): Matcher {
  const data = loadReporterData()
  const compiler = patternCompiler(flattenVariables(data.regexes))

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
      const c = compiler.compile(t)
      if (!c) continue
      ref.patterns.push(c.pattern)
      if (c.pattern.atStart) anchored.push([c.anchor!, c.pattern])
      else named.push(c.pattern)
    }
    for (const t of extra) {
      const c = compiler.compile(t, true)
      if (c) { ref.patterns.push(c.pattern); named.push(c.pattern) }
    }
    return { named, anchored }
  }

  let editionCount = 0
  // case reporters
  for (const [family, list] of Object.entries(data.reporters)) {
    for (const rep of list) {
      const byEdition = new Map<string, { ref: EditionRef; named: Pattern[] }>()
      for (const [ek, ed] of Object.entries(rep.editions)) {
        const templates = ed.regexes && ed.regexes.length ? ed.regexes : ['$full_cite']
        const ref: EditionRef = {
          kind: 'case', canonical: ek, norm: normKey(ek), name: rep.name, cite_type: rep.cite_type,
          startYear: yearOf(ed.start), endYear: yearOf(ed.end), family, patterns: [],
        }
        const { named, anchored } = compileAll(ref, templates, [SHORT_FORM])
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
  addOthers(data.laws, 'law')
  addOthers(data.journals, 'journal')

  // start characters, lenient index
  const startChars = new Uint8Array(65536)
  const compact = new Map<string, ReporterString[]>()
  for (const rs of strings.values()) {
    startChars[rs.text.charCodeAt(0)] = 1
    if (rs.text.charCodeAt(0) === 39) { startChars[0x2019] = 1; startChars[0x2018] = 1 }
    const ck = rs.text.replace(/\s+/g, '')
    const arr = compact.get(ck)
    if (arr) arr.push(rs)
    else compact.set(ck, [rs])
  }
  return {
    trie: buildTrie(strings.values()), startChars, strings, compact, editionCount,
    patternCount: compiler.patternCount, preCount: compiler.preCount, skipped: compiler.skipped,
  }
}
