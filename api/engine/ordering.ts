/**
 * `order_by`: comma-separated names from the resource's orderings, `-` for descending.
 * An invalid ordering is ignored in favour of the default, as the reference does.
 */
import type { ResourceDef } from '../../schemas/define.js'

export interface OrderTerm { field: string; desc: boolean }
export interface Ordering { terms: OrderTerm[]; /** true when order_by was given and valid */ explicit: boolean }

export function parseOrderTerms(text: string): OrderTerm[] {
  return text.split(',').map((s) => s.trim()).filter(Boolean).map((s) => ({ field: s.replace(/^-/, ''), desc: s.startsWith('-') }))
}

export function compileOrdering(r: ResourceDef): (orderBy: string | undefined) => Ordering {
  const allowed = new Set(r.orderings)
  const fallback = parseOrderTerms(r.ordering)
  return (orderBy) => {
    if (orderBy) {
      const terms = parseOrderTerms(orderBy)
      if (terms.length && terms.every((t) => allowed.has(t.field))) return { terms, explicit: true }
    }
    return { terms: fallback, explicit: false }
  }
}

/** v4 uses cursor pagination when the ordering is a single cursor-capable field. */
export function isCursorOrdering(r: ResourceDef, o: Ordering): boolean {
  return o.terms.length === 1 && r.cursorOrderings.includes(o.terms[0].field)
}
