/**
 * The filter language of list endpoints, compiled per resource at boot:
 *   <field>=v, <field>__<lookup>=v, <relation>__<field>__<lookup>=v (up to 4 hops),
 *   and the negation <name>!=v. Values are parsed by the field kind; bad values give
 *   field-keyed errors, names that are not filters give unknown_params. The result is SQL
 *   fragments with bound parameters only; the compiler never sees a connection.
 */
import { sql, ident, join, raw, param, type Sql } from '../../core/sql.js'
import type { FieldDef, FilterDef, ResourceDef } from '../../schemas/define.js'
import { columnOf } from '../../schemas/define.js'
import type { Catalogue } from '../../schemas/catalogue/index.js'
import type { StoredKind } from '../../schemas/kinds.js'

export const FRAMEWORK_PARAMS = new Set(['fields', 'omit', 'page', 'page_size', 'cursor', 'order_by', 'format', 'count', 'fields!'])
const MAX_DEPTH = 4

export interface FilterResult { where: Sql[]; errors: Record<string, string[]>; unknown: string[] }
export type FilterCompiler = (params: Map<string, string[]>) => FilterResult

class ValueError extends Error {}

const MESSAGES: Partial<Record<StoredKind, string>> = {
  int: 'Enter a number.', float: 'Enter a number.', fk: 'Enter a number.', date: 'Enter a valid date.',
  datetime: 'Enter a valid date/time.', bool: 'Select a valid choice.',
}

function parseValue(kind: StoredKind, v: string, stringKey: boolean): unknown {
  const bad = () => { throw new ValueError(MESSAGES[kind] ?? 'Enter a valid value.') }
  switch (kind) {
    case 'int': case 'fk': case 'm2m':
      if (stringKey) return v
      if (!/^-?\d+$/.test(v.trim())) bad()
      return Number(v.trim())
    case 'float': { const n = Number(v); if (v.trim() === '' || !Number.isFinite(n)) bad(); return n }
    case 'bool':
      if (['true', 'True', '1'].includes(v)) return true
      if (['false', 'False', '0'].includes(v)) return false
      return bad()
    case 'date':
      if (!/^\d{4}-\d{2}-\d{2}$/.test(v) || Number.isNaN(Date.parse(v))) bad()
      return v
    case 'datetime':
      if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(v) || Number.isNaN(Date.parse(v))) bad()
      return param(v, 'String')
    default: return v
  }
}

function valueSql(kind: StoredKind, v: unknown): Sql {
  if (kind === 'datetime') return sql`parseDateTime64BestEffort(${v}, 6, 'UTC')`
  return sql`${v}`
}

function lookupSql(kind: StoredKind, col: Sql, lookup: string, raw: string, stringKey: boolean): Sql {
  const one = (s: string) => parseValue(kind, s, stringKey)
  const partOf = (unit: 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second'): Sql => {
    if (kind === 'date') {
      const [from, len] = { year: [1, 4], month: [6, 2], day: [9, 2] }[unit as 'year'] as [number, number]
      return sql`toInt32OrNull(substring(${col}, ${from}, ${len}))`
    }
    const fn = { year: 'toYear', month: 'toMonth', day: 'toDayOfMonth', hour: 'toHour', minute: 'toMinute', second: 'toSecond' }[unit]
    return sql`${raw_(fn)}(${col})`
  }
  switch (lookup) {
    case 'exact': return kind === 'm2m' ? sql`has(${col}, ${one(raw)})` : sql`${col} = ${valueSql(kind, one(raw))}`
    case 'iexact': return sql`lower(${col}) = lower(${raw})`
    case 'startswith': return sql`startsWith(${col}, ${raw})`
    case 'istartswith': return sql`startsWith(lower(${col}), lower(${raw}))`
    case 'gt': return sql`${col} > ${valueSql(kind, one(raw))}`
    case 'gte': return sql`${col} >= ${valueSql(kind, one(raw))}`
    case 'lt': return sql`${col} < ${valueSql(kind, one(raw))}`
    case 'lte': return sql`${col} <= ${valueSql(kind, one(raw))}`
    case 'range': {
      const parts = raw.split(',')
      if (parts.length !== 2) throw new ValueError('Range query expects two values.')
      return sql`${col} BETWEEN ${valueSql(kind, one(parts[0]))} AND ${valueSql(kind, one(parts[1]))}`
    }
    case 'in': {
      const values = raw.split(',').map(one)
      return sql`${col} IN (${join(values.map((v) => valueSql(kind, v)), ', ')})`
    }
    case 'isnull': {
      const b = parseValue('bool', raw, false)
      return b ? sql`${col} IS NULL` : sql`${col} IS NOT NULL`
    }
    case 'year': case 'month': case 'day': case 'hour': case 'minute': case 'second': {
      if (!/^\d+$/.test(raw)) throw new ValueError('Enter a number.')
      return sql`${partOf(lookup)} = ${Number(raw)}`
    }
    default: throw new ValueError(`Unsupported lookup ${lookup}.`)
  }
}
const raw_ = (fn: string) => raw(fn) // function names come from the table above, never from input

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
  const stringKeyOf = (r: ResourceDef, d: FieldDef) => (d.kind === 'fk' || d.kind === 'm2m') && !!d.target && cat.get(d.target).keyKind === 'string'

  /** Compile a path of segments against resource r; throws ValueError for bad values, returns undefined for unknown names. */
  function compilePath(r: ResourceDef, segs: string[], value: string, depth: number): Sql | undefined {
    const [name, ...rest] = segs
    const fd = r.filters[name]
    if (!fd) return undefined
    if (fd.related) {
      const target = cat.get(fd.related)
      const link = linkOf(cat, r, name, fd)
      if (!link) return undefined
      if (rest.length === 0 || (rest.length === 1 && ['exact', 'in', 'isnull'].includes(rest[0]))) {
        // `court=scotus`: compare the link itself, which needs no join for a foreign key.
        const lookup = rest[0] ?? 'exact'
        const keyKind: StoredKind = target.keyKind === 'string' ? 'string' : 'int'
        if (link.kind === 'fk') return lookupSql(keyKind, sql`${ident(link.column)}`, lookup, value, target.keyKind === 'string')
        if (link.kind === 'm2m') {
          if (lookup === 'exact') return sql`has(${ident(link.column)}, ${parseValue(keyKind, value, target.keyKind === 'string')})`
        }
        return compileSub(r, target, link, lookupSql(keyKind, sql`${ident(target.key)}`, lookup, value, target.keyKind === 'string'))
      }
      if (depth >= MAX_DEPTH) return undefined
      const inner = compilePath(target, rest, value, depth + 1)
      return inner && compileSub(r, target, link, inner)
    }
    const lookup = rest.length === 0 ? 'exact' : rest.length === 1 ? rest[0] : undefined
    if (!lookup) return undefined
    const allowed = fd.lookups ?? []
    if (!allowed.includes(lookup as never) && !(fd.multiple && lookup === 'exact')) return undefined
    const col = fd.field ?? name
    const [fieldName, def] = Object.entries(r.fields).find(([n, d]) => columnOf(n, d) === col || n === col) ?? []
    if (!def || !fieldName) return undefined
    const kind = def.kind as StoredKind
    if (fd.multiple) return lookupSql(kind, sql`${ident(col)}`, 'in', value, stringKeyOf(r, def))
    return lookupSql(kind, sql`${ident(columnOf(fieldName, def))}`, lookup, value, stringKeyOf(r, def))
  }

  function compileSub(r: ResourceDef, target: ResourceDef, link: Link, inner: Sql): Sql {
    const from = sql`${ident(database)}.${ident(target.table)} FINAL`
    if (link.kind === 'fk') return sql`${ident(link.column)} IN (SELECT ${ident(link.targetColumn)} FROM ${from} WHERE ${inner})`
    if (link.kind === 'm2m') return sql`hasAny(${ident(link.column)}, (SELECT groupArray(${ident(link.targetColumn)}) FROM ${from} WHERE ${inner}))`
    const targetCol = link.targetColumn.startsWith('arrayJoin(') ? raw(link.targetColumn.replace(/^arrayJoin\((\w+)\)$/, 'arrayJoin(`$1`)')) : ident(link.targetColumn)
    return sql`${ident(r.key)} IN (SELECT ${targetCol} FROM ${from} WHERE ${inner})`
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
      const fd = root.filters[name.split('__')[0]]
      const joined = fd?.multiple && !name.includes('__') ? [nonEmpty.join(',')] : nonEmpty
      for (const v of joined) {
        try {
          const frag = compilePath(root, name.split('__'), v, 1)
          if (!frag) { unknown.push(rawName); break }
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
