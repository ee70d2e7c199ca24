/**
 * The parsed form of a search query. Field names are the query-syntax names of fields.ts;
 * `field: null` means the default text fields of the search type.
 *
 * Values are already analyzed: a text term holds one token, a phrase its tokens, a keyword value
 * its normal form, dates are YYYY-MM-DD and date/int ranges have inclusive bounds.
 */

export type Scalar = string | number | boolean

export type Node =
  /** the empty query: every document */
  | { readonly kind: 'all' }
  /** a query on a field the type does not have (as Elasticsearch's unmapped field): no document */
  | { readonly kind: 'none' }
  /** one token in a text field */
  | { readonly kind: 'term'; readonly field: string | null; readonly token: string }
  /** tokens next to each other in this order; with `slop`, within a window in any order */
  | { readonly kind: 'phrase'; readonly field: string | null; readonly tokens: readonly string[]; readonly slop?: number }
  /** a token (text) or a value (keyword) starting with `prefix` */
  | { readonly kind: 'prefix'; readonly field: string | null; readonly prefix: string }
  /** a keyword, int, date or bool field holding exactly `value` */
  | { readonly kind: 'value'; readonly field: string; readonly value: Scalar }
  /** a keyword, int or date field holding a value in the range; null = open end */
  | {
    readonly kind: 'range'; readonly field: string
    readonly lower: string | number | null; readonly upper: string | number | null
    readonly includeLower: boolean; readonly includeUpper: boolean
  }
  | { readonly kind: 'and'; readonly children: readonly Node[] }
  | { readonly kind: 'or'; readonly children: readonly Node[] }
  | { readonly kind: 'not'; readonly child: Node }

export type Leaf = Extract<Node, { kind: 'term' | 'phrase' | 'prefix' | 'value' | 'range' }>

export const ALL: Node = Object.freeze({ kind: 'all' })
export const NONE: Node = Object.freeze({ kind: 'none' })

/** Conjunction, flattened: `all` children vanish, a `none` child wins. */
export function and(children: readonly Node[]): Node {
  const out: Node[] = []
  for (const c of children) {
    if (c.kind === 'all') continue
    if (c.kind === 'none') return NONE
    if (c.kind === 'and') out.push(...c.children)
    else out.push(c)
  }
  if (out.length === 0) return ALL
  return out.length === 1 ? out[0] : { kind: 'and', children: out }
}

/** Disjunction, flattened: `none` children vanish, an `all` child wins. */
export function or(children: readonly Node[]): Node {
  const out: Node[] = []
  for (const c of children) {
    if (c.kind === 'none') continue
    if (c.kind === 'all') return ALL
    if (c.kind === 'or') out.push(...c.children)
    else out.push(c)
  }
  if (out.length === 0) return NONE
  return out.length === 1 ? out[0] : { kind: 'or', children: out }
}

export function not(child: Node): Node {
  if (child.kind === 'all') return NONE
  if (child.kind === 'none') return ALL
  if (child.kind === 'not') return child.child
  return { kind: 'not', child }
}

const q = (s: string) => (/^[\p{L}\p{N}_.-]+$/u.test(s) ? s : JSON.stringify(s))
const f = (field: string | null) => (field === null ? '' : `${field}:`)

/** A compact, stable rendering for tests and logs: `(caseName:smith AND -"a b"~3)`. */
export function show(n: Node): string {
  switch (n.kind) {
    case 'all': return '*'
    case 'none': return '∅'
    case 'term': return `${f(n.field)}${q(n.token)}`
    case 'phrase': return `${f(n.field)}"${n.tokens.join(' ')}"${n.slop === undefined ? '' : `~${n.slop}`}`
    case 'prefix': return `${f(n.field)}${q(n.prefix)}*`
    case 'value': return `${n.field}:${typeof n.value === 'string' ? q(n.value) : String(n.value)}`
    case 'range': return `${n.field}:${n.includeLower ? '[' : '{'}${n.lower ?? '*'} TO ${n.upper ?? '*'}${n.includeUpper ? ']' : '}'}`
    case 'and': return `(${n.children.map(show).join(' AND ')})`
    case 'or': return `(${n.children.map(show).join(' OR ')})`
    case 'not': return `-${show(n.child)}`
  }
}

/** Every leaf, with whether it sits under an odd number of NOTs (negated leaves do not score). */
export function leaves(n: Node, negated = false, out: { leaf: Leaf; negated: boolean }[] = []): { leaf: Leaf; negated: boolean }[] {
  switch (n.kind) {
    case 'all': case 'none': break
    case 'and': case 'or': for (const c of n.children) leaves(c, negated, out); break
    case 'not': leaves(n.child, !negated, out); break
    default: out.push({ leaf: n, negated })
  }
  return out
}
