/**
 * The filter language of list endpoints:
 *   <field>=v, <field>__<lookup>=v, <relation>__<field>__<lookup>=v (up to 4 hops),
 *   and the negation <name>!=v.
 * Values are parsed by the field's kind (schemas/kinds.ts); bad values give field-keyed errors,
 * names that are not filters give unknown_params. A parameter name is compiled the first time it
 * is seen into a function of its value (the catalogue is not walked again for that name), and
 * kept in a table per resource. The result is SQL fragments with bound parameters only; the
 * compiler never sees a connection.
 */
import { sql, ident, join, raw, type Sql } from '../../core/sql.js'
import type { FieldDef, FilterDef, ResourceDef } from '../../schemas/define.js'
import { columnOf } from '../../schemas/define.js'
import type { Catalogue } from '../../schemas/catalogue/index.js'
import { keyed, ValueError, KINDS, type KindSpec, type StoredKind } from '../../schemas/kinds.js'
import { holdsStringKey } from '../../schemas/columns.js'

export { ValueError }
export const FRAMEWORK_PARAMS = new Set(['fields', 'omit', 'page', 'page_size', 'cursor', 'order_by', 'format', 'count', 'fields!'])
const MAX_DEPTH = 4
/** Compiled names kept per resource; beyond this the table is not grown (names still compile). */
const MAX_COMPILED = 5_000

export interface FilterResult { where: Sql[]; errors: Record<string, string[]>; unknown: string[] }
export type FilterCompiler = (params: Map<string, string[]>) => FilterResult
/** One filter parameter, compiled: its value → an SQL condition (throws ValueError). */
type CompiledFilter = (value: string) => Sql

const DATE_PARTS = { year: [1, 4], month: [6, 2], day: [9, 2] } as const
const TIME_FUNCTIONS = { year: 'toYear', month: 'toMonth', day: 'toDayOfMonth', hour: 'toHour', minute: 'toMinute', second: 'toSecond' } as const
type Part = keyof typeof TIME_FUNCTIONS

/** The condition of one lookup on one column, as a function of the request value. */
function lookupFilter(spec: KindSpec, kind: StoredKind, col: Sql, lookup: string): CompiledFilter | undefined {
  const one = (s: string) => spec.sqlValue(spec.parse(s))
  switch (lookup) {
    case 'exact': return kind === 'm2m' ? (v) => sql`has(${col}, ${spec.parse(v)})` : (v) => sql`${col} = ${one(v)}`
    case 'iexact': return (v) => sql`lower(${col}) = lower(${v})`
    case 'startswith': return (v) => sql`startsWith(${col}, ${v})`
    case 'istartswith': return (v) => sql`startsWith(lower(${col}), lower(${v}))`
    case 'gt': return (v) => sql`${col} > ${one(v)}`
    case 'gte': return (v) => sql`${col} >= ${one(v)}`
    case 'lt': return (v) => sql`${col} < ${one(v)}`
    case 'lte': return (v) => sql`${col} <= ${one(v)}`
    case 'range': return (v) => {
      const parts = v.split(',')
      if (parts.length !== 2) throw new ValueError('Range query expects two values.')
      return sql`${col} BETWEEN ${one(parts[0])} AND ${one(parts[1])}`
    }
    case 'in': return (v) => sql`${col} IN (${join(v.split(',').map(one), ', ')})`
    case 'isnull': return (v) => (KINDS.bool.parse(v) ? sql`${col} IS NULL` : sql`${col} IS NOT NULL`)
    case 'year': case 'month': case 'day': case 'hour': case 'minute': case 'second': {
      // Dates are stored as ISO text: their parts are substrings; timestamps have functions.
      const part = kind === 'date'
        ? sql`toInt32OrNull(substring(${col}, ${DATE_PARTS[lookup as 'year'][0]}, ${DATE_PARTS[lookup as 'year'][1]}))`
        : sql`${raw(TIME_FUNCTIONS[lookup as Part])}(${col})` // function names from the table above, never from input
      return (v) => {
        if (!/^\d+$/.test(v)) throw new ValueError('Enter a number.')
        return sql`${part} = ${Number(v)}`
      }
    }
    default: return undefined
  }
}

interface Link { kind: 'fk' | 'm2m' | 'reverse'; column: string; targetColumn: string }

/** How rows of `r` reach rows of `target` for the related filter `name`. */
function linkOf(cat: Catalogue, r: ResourceDef, name: string, fd: FilterDef): Link | undefined {
  const target = cat.get(fd.related!)
  const field: FieldDef | undefined = r.fields[name]
  if (field?.kind === 'fk') return { kind: 'fk', column: columnOf(name, field), targetColumn: target.key }
  if (field?.kind === 'm2m') return { kind: 'm2m', column: columnOf(name, field), targetColumn: target.key }
  if (field && (field.kind === 'reverse' || field.kind === 'nested') && (field.from ?? field.target) === target.name) {
    return { kind: 'reverse', column: r.key, targetColumn: field.via! }
  }
  if (fd.field) return { kind: 'fk', column: fd.field, targetColumn: target.key }
  if (fd.reverse) {
    const back = target.fields[fd.reverse]
    if (back?.kind === 'fk') return { kind: 'reverse', column: r.key, targetColumn: columnOf(fd.reverse, back) }
    if (back?.kind === 'm2m') return { kind: 'reverse', column: r.key, targetColumn: `arrayJoin(${columnOf(fd.reverse, back)})` }
    return undefined
  }
  // A relation declared only on the other side: find the foreign key in target pointing here.
  for (const [n, d] of Object.entries(target.fields)) {
    if (d.kind === 'fk' && d.target === r.name) return { kind: 'reverse', column: r.key, targetColumn: columnOf(n, d) }
    if (d.kind === 'm2m' && d.target === r.name) return { kind: 'reverse', column: r.key, targetColumn: `arrayJoin(${columnOf(n, d)})` }
  }
  return undefined
}

export function compileFilters(cat: Catalogue, root: ResourceDef, database: string): FilterCompiler {
  /** Wraps a condition on rows of `target` into a condition on rows of `r`. */
  function through(r: ResourceDef, target: ResourceDef, link: Link): (inner: Sql) => Sql {
    const from = sql`${ident(database)}.${ident(target.table)} FINAL`
    if (link.kind === 'fk') return (inner) => sql`${ident(link.column)} IN (SELECT ${ident(link.targetColumn)} FROM ${from} WHERE ${inner})`
    if (link.kind === 'm2m') return (inner) => sql`hasAny(${ident(link.column)}, (SELECT groupArray(${ident(link.targetColumn)}) FROM ${from} WHERE ${inner}))`
    const targetCol = link.targetColumn.startsWith('arrayJoin(') ? raw(link.targetColumn.replace(/^arrayJoin\((\w+)\)$/, 'arrayJoin(`$1`)')) : ident(link.targetColumn)
    return (inner) => sql`${ident(r.key)} IN (SELECT ${targetCol} FROM ${from} WHERE ${inner})`
  }

  /** Compiles a path of segments against resource r, or undefined when it names no filter. */
  function compilePath(r: ResourceDef, segs: string[], depth: number): CompiledFilter | undefined {
    const [name, ...rest] = segs
    const fd = r.filters[name]
    if (!fd) return undefined
    if (fd.related) {
      const target = cat.get(fd.related)
      const link = linkOf(cat, r, name, fd)
      if (!link) return undefined
      const wrap = through(r, target, link)
      if (rest.length === 0 || (rest.length === 1 && ['exact', 'in', 'isnull'].includes(rest[0]))) {
        // `court=scotus`: compare the link itself, which needs no join for a foreign key.
        const lookup = rest[0] ?? 'exact'
        const keySpec = keyed(target.keyKind === 'string' ? 'string' : 'int', false)
        if (link.kind === 'fk') return lookupFilter(keySpec, 'int', sql`${ident(link.column)}`, lookup)
        if (link.kind === 'm2m' && lookup === 'exact') return (v) => sql`has(${ident(link.column)}, ${keySpec.parse(v)})`
        const inner = lookupFilter(keySpec, 'int', sql`${ident(target.key)}`, lookup)
        return inner && ((v) => wrap(inner(v)))
      }
      if (depth >= MAX_DEPTH) return undefined
      const inner = compilePath(target, rest, depth + 1)
      return inner && ((v) => wrap(inner(v)))
    }
    const lookup = rest.length === 0 ? 'exact' : rest.length === 1 ? rest[0] : undefined
    if (!lookup) return undefined
    // A switch (FilterDef.flag) selects no rows: its value is checked, the condition always holds.
    if (fd.flag) return lookup === 'exact' ? (v) => { KINDS.bool.parse(v); return sql`1 = 1` } : undefined
    if (!(fd.lookups ?? []).includes(lookup as never) && !(fd.multiple && lookup === 'exact')) return undefined
    const col = fd.field ?? name
    const [fieldName, def] = Object.entries(r.fields).find(([n, d]) => columnOf(n, d) === col || n === col) ?? []
    if (!def || !fieldName) return undefined
    const kind = def.kind as StoredKind
    const spec = keyed(kind, holdsStringKey(cat, r, fieldName))
    return lookupFilter(spec, kind, sql`${ident(columnOf(fieldName, def))}`, fd.multiple ? 'in' : lookup)
  }

  const compiled = new Map<string, CompiledFilter | null>()
  function resolve(name: string): CompiledFilter | undefined {
    const hit = compiled.get(name)
    if (hit !== undefined) return hit ?? undefined
    const f = compilePath(root, name.split('__'), 1)
    if (compiled.size < MAX_COMPILED) compiled.set(name, f ?? null)
    return f
  }

  return (params) => {
    const where: Sql[] = []
    const errors: Record<string, string[]> = {}
    const unknown: string[] = []
    for (const [rawName, values] of params) {
      if (FRAMEWORK_PARAMS.has(rawName)) continue
      const nonEmpty = values.filter((v) => v !== '')
      if (nonEmpty.length === 0) continue
      const negate = rawName.endsWith('!')
      const name = negate ? rawName.slice(0, -1) : rawName
      const filter = resolve(name)
      if (!filter) { unknown.push(rawName); continue }
      const multiple = root.filters[name.split('__')[0]]?.multiple && !name.includes('__')
      for (const v of multiple ? [nonEmpty.join(',')] : nonEmpty) {
        try {
          const frag = filter(v)
          where.push(negate ? sql`NOT (${frag})` : frag)
        } catch (err) {
          if (!(err instanceof ValueError)) throw err
          ;(errors[name] ??= []).push(err.message)
        }
      }
    }
    return { where, errors, unknown: [...new Set(unknown)].sort() }
  }
}
