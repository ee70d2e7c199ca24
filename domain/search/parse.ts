/**
 * The query language: what users of Lucene-style legal search type.
 *
 *   term                  a token in the default text fields of the type
 *   "a phrase"            tokens next to each other, in order
 *   "a b"~5               proximity: every term within a window, any order, with at most 5 other
 *                         positions inside it ("a b"~0: adjacent, either order)
 *   abc*                  prefix: at least 3 characters (one token) before a trailing *;
 *                         leading or inner * and any ? are refused
 *   a b                   AND (the default operator), also `a AND b`, `a && b`, `+a +b`
 *   a OR b, a || b        OR
 *   NOT a, -a, !a         NOT (a pure negation is "everything except")
 *   ( … )                 grouping; precedence NOT > AND > OR
 *   field:value           also field:"a phrase", field:(a OR b), field:abc*
 *   field:[a TO b]        inclusive range, {a TO b} exclusive, mixed [a TO b}, * for an open end;
 *   field:>a  field:>=a   field:<b  field:<=b  open ranges (date, int and keyword fields);
 *                         brackets not right after `field:` are ordinary separators
 *   \x                    the character x taken literally (\: \( \" \* …)
 *
 * Operators are the upper-case words only; `and`, `or`, `not` are terms.
 * A term that analyzes to several tokens is a phrase of them (`F.3d` → "f 3d"); a term that
 * analyzes to none (`§`) is dropped, and a query left empty matches everything.
 * Dates: YYYY, YYYY-MM or YYYY-MM-DD; a partial date covers its whole year or month, and a range
 * bound is rounded the way Elasticsearch does (`dateFiled:[2020 TO 2021]` = 2020-01-01…2021-12-31,
 * `{2020 TO *]` starts 2021-01-01). `dateFiled:2020` is the whole year.
 * Unknown field names: as Elasticsearch's query_string with a fixed field list, `foo:bar` asks the
 * field `foo`, which no document has, so that clause matches nothing (it is not an error, and it is
 * not turned into text). Field names are case-sensitive.
 * Not supported: fuzzy `term~2` (an unrecognized proximity token), regular expressions (`/` is an
 * ordinary separator), wildcards inside phrases (`*` in quotes is a separator). A boost `^2`
 * after a term or phrase is accepted and ignored.
 */
import { tokens } from './analyzer.js'
import { ALL, and, not, or, NONE, type Node } from './ast.js'
import { FIELD_KINDS, type RangeBound } from './field-kinds.js'
import { searchType, type SearchField, type SearchType, type SearchTypeSpec } from './fields.js'
import { MESSAGES, at, syntaxError as ERR, type SearchSyntaxError } from './syntax-error.js'

export { MESSAGES, SearchSyntaxError } from './syntax-error.js'
export { MIN_PREFIX, dateSpan } from './field-kinds.js'

type Tok =
  | { t: 'lparen' | 'rparen' | 'and' | 'or' | 'not' | 'plus' | 'minus'; pos: number }
  | { t: 'word'; pos: number; text: string; raw: string; stars: number[]; qmarks: number[] }
  | { t: 'phrase'; pos: number; text: string; slop?: number }
  | { t: 'field'; pos: number; name: string }
  | { t: 'range'; pos: number; lower: Bound; upper: Bound; includeLower: boolean; includeUpper: boolean }

type Bound = RangeBound

const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/
const WS = /\s/

/** Quotes first (parentheses inside quotes do not count), then parentheses, as the reference checks them. */
function checkBalance(q: string): void {
  let open = -1
  for (let i = 0; i < q.length; i++) {
    const c = q[i]
    if (c === '\\') { i++; continue }
    if (c === '"') open = open < 0 ? i : -1
  }
  if (open >= 0) throw ERR(MESSAGES.quotes, open)
  const stack: number[] = []
  let inQuote = false
  for (let i = 0; i < q.length; i++) {
    const c = q[i]
    if (c === '\\') { i++; continue }
    if (c === '"') inQuote = !inQuote
    if (inQuote) continue
    if (c === '(') stack.push(i)
    else if (c === ')') {
      if (stack.length === 0) throw ERR(MESSAGES.parentheses, i)
      stack.pop()
    }
  }
  if (stack.length) throw ERR(MESSAGES.parentheses, stack[stack.length - 1])
}

const isBreak = (c: string | undefined) => c === undefined || WS.test(c) || c === '(' || c === ')' || c === '"'

function lex(q: string): Tok[] {
  const out: Tok[] = []
  let i = 0
  const n = q.length
  /** `~digits` and `^number` after a phrase or word */
  const suffixes = (allowSlop: boolean): number | undefined => {
    let slop: number | undefined
    if (q[i] === '~') {
      const m = /^~(\d+)/.exec(q.slice(i))
      if (!allowSlop || !m || !isBreak(q[i + m[0].length]) && q[i + m[0].length] !== '^') throw ERR(MESSAGES.proximity, i)
      slop = Number(m[1])
      i += m[0].length
    }
    if (q[i] === '^') {
      const m = /^\^\d+(\.\d+)?/.exec(q.slice(i))
      if (m && isBreak(q[i + m[0].length])) i += m[0].length
    }
    return slop
  }
  while (i < n) {
    const c = q[i]
    if (WS.test(c)) { i++; continue }
    const pos = i
    if (c === '(') { out.push({ t: 'lparen', pos }); i++; continue }
    if (c === ')') { out.push({ t: 'rparen', pos }); i++; continue }
    if (c === '"') {
      let text = ''
      i++
      while (q[i] !== '"') {
        if (q[i] === '\\') i++
        text += q[i]
        i++
      }
      i++
      const slop = suffixes(true)
      out.push({ t: 'phrase', pos, text, slop })
      continue
    }
    if (c === '&' && q[i + 1] === '&') { out.push({ t: 'and', pos }); i += 2; continue }
    if (c === '|' && q[i + 1] === '|') { out.push({ t: 'or', pos }); i += 2; continue }
    if ((c === '+' || c === '-' || c === '!') && i + 1 < n && !WS.test(q[i + 1]) && q[i + 1] !== ')') {
      out.push({ t: c === '+' ? 'plus' : 'minus', pos })
      i++
      continue
    }
    if (c === '~') throw ERR(MESSAGES.proximity, i)
    // a word, or a field name followed by ':'
    let text = ''
    let raw = ''
    const stars: number[] = []
    const qmarks: number[] = []
    let escaped = false
    while (i < n) {
      const ch = q[i]
      if (ch === '\\' && i + 1 < n) {
        text += q[i + 1]
        raw += q[i] + q[i + 1]
        escaped = true
        i += 2
        continue
      }
      if (WS.test(ch) || ch === '(' || ch === ')' || ch === '"' || ch === '~' || ch === '^') break
      if (ch === ':' && !escaped && FIELD_NAME.test(raw)) break
      if (ch === '*') stars.push(i)
      if (ch === '?') qmarks.push(i)
      text += ch
      raw += ch
      i++
    }
    if (q[i] === ':' && !escaped && FIELD_NAME.test(raw) && raw.length > 0) {
      i++
      out.push({ t: 'field', pos, name: raw })
      const next = q[i]
      if (next === '[' || next === '{') { out.push(lexRange(q, i)); i = skipRange(q, i); continue }
      if (next === '>' || next === '<') { const [tok, end] = lexCompare(q, i); out.push(tok); i = end; continue }
      if (next === undefined || WS.test(next) || next === ')') throw ERR(`Expected a value after "${raw}:" ${at(i)}.`, i)
      continue
    }
    if (q[i] === '^') {
      const m = /^\^\d+(\.\d+)?/.exec(q.slice(i))
      if (m && isBreak(q[i + m[0].length])) i += m[0].length
      else { text += '^'; raw += '^'; i++; while (i < n && !isBreak(q[i])) { text += q[i]; raw += q[i]; i++ } }
    }
    if (q[i] === '~') throw ERR(MESSAGES.proximity, i)
    if (raw === 'AND') out.push({ t: 'and', pos })
    else if (raw === 'OR') out.push({ t: 'or', pos })
    else if (raw === 'NOT') out.push({ t: 'not', pos })
    else if (raw === '') continue // a lone boost
    else out.push({ t: 'word', pos, text, raw, stars, qmarks })
  }
  return out
}

function skipRange(q: string, start: number): number {
  for (let i = start + 1; i < q.length; i++) {
    if (q[i] === '\\') { i++; continue }
    if (q[i] === ']' || q[i] === '}') return i + 1
  }
  throw ERR(`Unterminated range ${at(start)}.`, start)
}

function lexRange(q: string, start: number): Tok {
  const end = skipRange(q, start) - 1
  const body = q.slice(start + 1, end)
  const parts: Bound[] = []
  const re = /\S+/g
  for (const m of body.matchAll(re)) parts.push({ text: m[0].replace(/\\(.)/g, '$1'), pos: start + 1 + (m.index ?? 0) })
  if (parts.length !== 3 || parts[1].text !== 'TO') throw ERR(`Malformed range ${at(start)}: expected [from TO to].`, start)
  const bound = (b: Bound): Bound => ({ text: b.text === '*' ? null : b.text, pos: b.pos })
  return { t: 'range', pos: start, lower: bound(parts[0]), upper: bound(parts[2]), includeLower: q[start] === '[', includeUpper: q[end] === ']' }
}

function lexCompare(q: string, start: number): [Tok, number] {
  const m = /^(>=|<=|>|<)((?:\\.|[^\s()"])+)/.exec(q.slice(start))
  if (!m) throw ERR(`Expected a value after "${q[start]}" ${at(start)}.`, start)
  const vpos = start + m[1].length
  const v: Bound = { text: m[2].replace(/\\(.)/g, '$1'), pos: vpos }
  const open: Bound = { text: null, pos: vpos }
  const tok: Tok = m[1].startsWith('>')
    ? { t: 'range', pos: start, lower: v, upper: open, includeLower: m[1] === '>=', includeUpper: true }
    : { t: 'range', pos: start, lower: open, upper: v, includeLower: true, includeUpper: m[1] === '<=' }
  return [tok, start + m[0].length]
}

class Parser {
  private i = 0
  constructor(private readonly toks: Tok[], private readonly spec: SearchTypeSpec, private readonly q: string) {}

  parse(): Node {
    if (this.toks.length === 0) return ALL
    const node = this.orExpr(undefined)
    const t = this.toks[this.i]
    if (t) throw this.unexpected(t)
    return node ?? ALL
  }

  private unexpected(t: Tok | undefined): SearchSyntaxError {
    if (!t) return ERR(`Unexpected end of query ${at(this.q.length)}.`, this.q.length)
    const text = t.t === 'word' ? t.raw : t.t === 'field' ? `${t.name}:` : t.t === 'phrase' ? '"'
      : (/^(AND|OR|NOT|&&|\|\||.)/s.exec(this.q.slice(t.pos)) ?? [''])[0]
    return ERR(`Unexpected "${text}" ${at(t.pos)}.`, t.pos)
  }

  /** null = a clause that analyzed to nothing (dropped by its parent) */
  private orExpr(field: SearchField | null | undefined): Node | null {
    const parts: Node[] = []
    let left = this.andExpr(field)
    if (left) parts.push(left)
    while (this.toks[this.i]?.t === 'or') {
      this.i++
      const right = this.andExpr(field)
      if (right) parts.push(right)
    }
    return parts.length ? or(parts) : null
  }

  private startsUnary(t: Tok | undefined): boolean {
    return !!t && t.t !== 'rparen' && t.t !== 'and' && t.t !== 'or'
  }

  private andExpr(field: SearchField | null | undefined): Node | null {
    const parts: Node[] = []
    const first = this.unary(field)
    if (first) parts.push(first)
    for (;;) {
      const t = this.toks[this.i]
      if (t?.t === 'and') {
        this.i++
        const right = this.unary(field)
        if (right) parts.push(right)
      } else if (this.startsUnary(t)) {
        const right = this.unary(field)
        if (right) parts.push(right)
      } else break
    }
    return parts.length ? and(parts) : null
  }

  private unary(field: SearchField | null | undefined): Node | null {
    const t = this.toks[this.i]
    if (!t) throw this.unexpected(t)
    if (t.t === 'not' || t.t === 'minus') {
      this.i++
      const child = this.unary(field)
      return child ? not(child) : null
    }
    if (t.t === 'plus') {
      this.i++
      return this.unary(field)
    }
    return this.primary(field)
  }

  /** `field` undefined: default fields; null: an unknown field (matches nothing) */
  private primary(field: SearchField | null | undefined): Node | null {
    const t = this.toks[this.i]
    if (!t) throw this.unexpected(t)
    switch (t.t) {
      case 'lparen': {
        this.i++
        if (this.toks[this.i]?.t === 'rparen') { this.i++; return null }
        const inner = this.orExpr(field)
        const close = this.toks[this.i]
        if (close?.t !== 'rparen') throw this.unexpected(close)
        this.i++
        return inner
      }
      case 'field': {
        this.i++
        const f = this.spec.byName.get(t.name) ?? null
        const next = this.toks[this.i]
        if (!next || next.t === 'rparen' || next.t === 'field' || next.t === 'and' || next.t === 'or') throw this.unexpected(next)
        if (next.t === 'not' || next.t === 'minus' || next.t === 'plus') throw this.unexpected(next)
        const node = this.primary(f)
        return f === null && node !== null ? NONE : node
      }
      case 'word': this.i++; return this.word(t, field)
      case 'phrase': this.i++; return this.phrase(t, field)
      case 'range': this.i++; return this.range(t, field)
      default: throw this.unexpected(t)
    }
  }

  private word(t: Extract<Tok, { t: 'word' }>, field: SearchField | null | undefined): Node | null {
    if (t.qmarks.length) throw ERR(MESSAGES.wildcard, t.qmarks[0])
    const last = t.pos + t.raw.length - 1
    if (t.stars.length) {
      const inner = t.stars.find((p) => p !== last)
      if (inner !== undefined) throw ERR(MESSAGES.wildcard, inner)
      if (field === null) return NONE
      return FIELD_KINDS[field?.kind ?? 'text'].prefix(t.text.slice(0, -1), last, field ? field.name : null)
    }
    return this.value(t.text, t.pos, field)
  }

  private phrase(t: Extract<Tok, { t: 'phrase' }>, field: SearchField | null | undefined): Node | null {
    if (field === null) return NONE
    if (field && !FIELD_KINDS[field.kind].analyzed) return this.value(t.text, t.pos, field)
    const toks = tokens(t.text)
    if (toks.length === 0) return null
    if (toks.length === 1) return { kind: 'term', field: field ? field.name : null, token: toks[0] }
    if (t.slop === undefined) return { kind: 'phrase', field: field ? field.name : null, tokens: toks }
    const distinct = [...new Set(toks)]
    if (distinct.length === 1) return { kind: 'term', field: field ? field.name : null, token: distinct[0] }
    return { kind: 'phrase', field: field ? field.name : null, tokens: distinct, slop: t.slop }
  }

  /** A bare or quoted value for a field (or the default fields). */
  private value(text: string, pos: number, field: SearchField | null | undefined): Node | null {
    if (field === null) return NONE
    return FIELD_KINDS[field?.kind ?? 'text'].value(text, pos, field ? field.name : null)
  }

  private range(t: Extract<Tok, { t: 'range' }>, field: SearchField | null | undefined): Node | null {
    if (field === undefined) throw ERR(`A range needs a field, e.g. dateFiled:[2020-01-01 TO *], ${at(t.pos)}.`, t.pos)
    if (field === null) return NONE
    return FIELD_KINDS[field.kind].range(t, field.name)
  }
}

/**
 * Parses `q` for a search type. An empty or all-whitespace q is `{kind: 'all'}`.
 * Throws SearchSyntaxError (with `position`) for what the language refuses.
 */
export function parseQuery(q: string, type: SearchType): Node {
  const spec = searchType(type)
  checkBalance(q)
  const toks = lex(q)
  return new Parser(toks, spec, q).parse()
}
