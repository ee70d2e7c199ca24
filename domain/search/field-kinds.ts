/**
 * The one table from search field kind (fields.ts) to how a field of that kind behaves:
 *   analyzed  its values are cut into tokens (positions, BM25) rather than kept as exact values;
 *   index     a document's value → the value indexed and matched (bad value → Error naming the column);
 *   value     `field:value` or `field:"value"` in a query → its node (bad text → SearchSyntaxError);
 *   prefix    `field:abc*` → its node, or refused;
 *   range     `field:[a TO b]`, `field:>a` → its node, with inclusive bounds where the kind's values
 *             are discrete (int, date), or refused.
 * document.ts and parse.ts look kinds up here instead of switching on them.
 */
import { tokens, normalizeKeyword } from './analyzer.js'
import type { Node, Scalar } from './ast.js'
import type { FieldKind } from './fields.js'
import { MESSAGES, at, syntaxError } from './syntax-error.js'

/** One end of a range as written; `text` null = open (`*`). */
export interface RangeBound { readonly text: string | null; readonly pos: number }

export interface RangeQuery {
  readonly pos: number
  readonly lower: RangeBound
  readonly upper: RangeBound
  readonly includeLower: boolean
  readonly includeUpper: boolean
}

export interface FieldKindSpec {
  readonly analyzed: boolean
  /** `v` is present (not null, undefined or ''); null = the value indexes as absent */
  index(v: unknown, column: string): Scalar | null
  /** `field` null: the default text fields (analyzed kinds only); null result = analyzed to nothing */
  value(text: string, pos: number, field: string | null): Node | null
  /** `text` is what comes before the trailing `*`, `star` its position */
  prefix(text: string, star: number, field: string | null): Node
  range(r: RangeQuery, field: string): Node
}

/** Shortest text before a trailing `*`. */
export const MIN_PREFIX = 3

const INT = /^[+-]?\d{1,15}$/

/** `YYYY`, `YYYY-MM`, `YYYY-MM-DD` → the first and last day it covers, or null. */
export function dateSpan(s: string): { first: string; last: string } | null {
  const m = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/.exec(s)
  if (!m) return null
  const y = Number(m[1])
  const pad = (v: number) => String(v).padStart(2, '0')
  const daysIn = (mo: number) => new Date(Date.UTC(y, mo, 0)).getUTCDate()
  if (m[2] === undefined) return { first: `${m[1]}-01-01`, last: `${m[1]}-12-31` }
  const mo = Number(m[2])
  if (mo < 1 || mo > 12) return null
  if (m[3] === undefined) return { first: `${m[1]}-${m[2]}-01`, last: `${m[1]}-${m[2]}-${pad(daysIn(mo))}` }
  const d = Number(m[3])
  if (d < 1 || d > daysIn(mo)) return null
  return { first: s, last: s }
}

function shiftDay(day: string, by: number): string {
  const t = Date.parse(`${day}T00:00:00Z`) + by * 86_400_000
  return new Date(t).toISOString().slice(0, 10)
}

/** Only analyzed kinds are searched without a field name; the parser never asks the others so. */
function named(field: string | null): string {
  if (field === null) throw new Error('only text fields are searched by default')
  return field
}

const noPrefix = (_text: string, star: number): never => { throw syntaxError(MESSAGES.wildcard, star) }
const noRange = (r: RangeQuery, field: string): never => { throw syntaxError(`Field ${field} does not support ranges (${at(r.pos)}).`, r.pos) }

const text: FieldKindSpec = {
  analyzed: true,
  index: (v) => String(v),
  value(text, _pos, field) {
    const toks = tokens(text)
    if (toks.length === 0) return null
    return toks.length === 1 ? { kind: 'term', field, token: toks[0] } : { kind: 'phrase', field, tokens: toks }
  },
  prefix(text, star, field) {
    const toks = tokens(text)
    // one token, and not one the analyzer cut from punctuation ('f.3' is not a prefix of 'f 3d')
    if (toks.length !== 1 || toks[0].length < MIN_PREFIX || toks[0].length !== text.length && /[^\p{L}\p{N}]/u.test(text)) throw syntaxError(MESSAGES.wildcard, star)
    return { kind: 'prefix', field, prefix: toks[0] }
  },
  range: noRange,
}

const keyword: FieldKindSpec = {
  analyzed: false,
  index(v) { const s = normalizeKeyword(String(v)); return s === '' ? null : s },
  value(text, _pos, field) {
    const v = normalizeKeyword(text)
    return v === '' ? null : { kind: 'value', field: named(field), value: v }
  },
  prefix(text, star, field) {
    const p = normalizeKeyword(text)
    if (p.length < MIN_PREFIX) throw syntaxError(MESSAGES.wildcard, star)
    return { kind: 'prefix', field: named(field), prefix: p }
  },
  // strings have no next value: bounds keep their exclusivity
  range(r, field) {
    const b = (x: RangeBound) => (x.text === null ? null : normalizeKeyword(x.text))
    return { kind: 'range', field, lower: b(r.lower), upper: b(r.upper), includeLower: r.includeLower, includeUpper: r.includeUpper }
  },
}

const int: FieldKindSpec = {
  analyzed: false,
  index(v, column) {
    const n = Number(v)
    if (!Number.isInteger(n)) throw new Error(`${column}: not an integer: ${String(v)}`)
    return n
  },
  value(text, pos, field) {
    const v = text.trim()
    if (!INT.test(v)) throw syntaxError(`Invalid integer "${text}" for field ${named(field)} ${at(pos)}.`, pos)
    return { kind: 'value', field: named(field), value: Number(v) }
  },
  prefix: noPrefix,
  range(r, field) {
    const num = (x: RangeBound): number | null => {
      if (x.text === null) return null
      if (!INT.test(x.text)) throw syntaxError(`Invalid integer "${x.text}" for field ${field} ${at(x.pos)}.`, x.pos)
      return Number(x.text)
    }
    const lo = num(r.lower)
    const hi = num(r.upper)
    return {
      kind: 'range', field,
      lower: lo === null ? null : r.includeLower ? lo : lo + 1,
      upper: hi === null ? null : r.includeUpper ? hi : hi - 1,
      includeLower: true, includeUpper: true,
    }
  },
}

const date: FieldKindSpec = {
  analyzed: false,
  index(v, column) {
    const s = v instanceof Date ? v.toISOString() : String(v)
    if (!/^\d{4}-\d{2}-\d{2}/.test(s)) throw new Error(`${column}: not a date: ${s}`)
    return s.slice(0, 10)
  },
  // a partial date is the whole year or month it names
  value(text, pos, field) {
    const span = dateSpan(text.trim())
    if (!span) throw syntaxError(`Invalid date "${text}" for field ${named(field)} ${at(pos)}.`, pos)
    if (span.first === span.last) return { kind: 'value', field: named(field), value: span.first }
    return { kind: 'range', field: named(field), lower: span.first, upper: span.last, includeLower: true, includeUpper: true }
  },
  prefix: noPrefix,
  // bounds rounded as Elasticsearch rounds them: [2020 TO 2021] = 2020-01-01…2021-12-31, {2020 TO *] starts 2021-01-01
  range(r, field) {
    const span = (x: RangeBound) => {
      if (x.text === null) return null
      const s = dateSpan(x.text)
      if (!s) throw syntaxError(`Invalid date "${x.text}" for field ${field} ${at(x.pos)}.`, x.pos)
      return s
    }
    const lo = span(r.lower)
    const hi = span(r.upper)
    return {
      kind: 'range', field,
      lower: lo === null ? null : r.includeLower ? lo.first : shiftDay(lo.last, 1),
      upper: hi === null ? null : r.includeUpper ? hi.last : shiftDay(hi.first, -1),
      includeLower: true, includeUpper: true,
    }
  },
}

const bool: FieldKindSpec = {
  analyzed: false,
  index: (v) => v === true || v === 'true' || v === 1,
  value(text, pos, field) {
    const v = text.trim().toLowerCase()
    if (v !== 'true' && v !== 'false') throw syntaxError(`Invalid boolean "${text}" for field ${named(field)} ${at(pos)}.`, pos)
    return { kind: 'value', field: named(field), value: v === 'true' }
  },
  prefix: noPrefix,
  range: noRange,
}

export const FIELD_KINDS: Readonly<Record<FieldKind, FieldKindSpec>> = Object.freeze({ text, keyword, int, date, bool })
