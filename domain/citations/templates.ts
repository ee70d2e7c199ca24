/**
 * The citation templates of the reporter databases ("$full_cite", per-edition `regexes`, law
 * `regexes`) compiled to JavaScript regexes: each is expanded with the named fragments of
 * regexes.json and split around `$reporter` into a prefix (a sticky look-behind run AT the
 * reporter's start) and a suffix (a sticky regex run AT the reporter's end), so extraction tries
 * only the patterns of the reporter string found at a position, anchored there.
 */
import type { Pattern } from './reporter-types.js'

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

export interface CompiledParts { pre: string | null; post: string; atStart: boolean; anchor: string | null }

export function splitTemplate(expanded: string): CompiledParts | null {
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

export interface CompiledTemplate { pattern: Pattern; anchor: string | null }

/** Compiles templates to patterns, once per distinct template; patterns with the same prefix share its RegExp. */
export interface PatternCompiler {
  compile(template: string, short?: boolean): CompiledTemplate | null
  /** patterns compiled so far (Pattern.id < patternCount) */
  readonly patternCount: number
  /** distinct prefix regexes (Pattern.preId < preCount) */
  readonly preCount: number
  /** templates that could not be compiled (reported, never thrown) */
  readonly skipped: { template: string; reason: string }[]
}

export function patternCompiler(vars: Map<string, string>): PatternCompiler {
  const skipped: { template: string; reason: string }[] = []
  const cache = new Map<string, CompiledTemplate | null>()
  let nextId = 0
  const preBySource = new Map<string, { re: RegExp; id: number }>()
  const compile = (template: string, short = false): CompiledTemplate | null => {
    const cacheKey = (short ? 'S:' : '') + template
    if (cache.has(cacheKey)) return cache.get(cacheKey)!
    let result: CompiledTemplate | null = null
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
    cache.set(cacheKey, result)
    return result
  }
  return {
    compile,
    get patternCount() { return nextId },
    get preCount() { return preBySource.size },
    skipped,
  }
}
