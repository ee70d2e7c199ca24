/**
 * The filter language of list endpoints:
 *   <field>=v, <field>__<lookup>=v, <relation>__<field>__<lookup>=v (up to 4 hops),
 *   and the negation <name>!=v.
 * Values are parsed by the field's kind (schemas/kinds.ts), and choice filters check choices; bad
 * values give field-keyed errors in the reference's words, names that are not filters give
 * unknown_params. Whatever passes is a value ClickHouse can take, so no request value fails a
 * query. A parameter name is compiled the first time it is seen into a function of its values
 * (the catalogue is not walked again for that name), and kept in a table per resource. The
 * result is SQL fragments with bound parameters only; the compiler never sees a connection.
 */
import { sql, ident, join, raw, param, Sql } from '../../core/sql.js'
import type { FieldDef, FilterDef, ResourceDef } from '../../schemas/define.js'
import { columnOf } from '../../schemas/define.js'
import type { Catalogue } from '../../schemas/catalogue/index.js'
import { keyed, ValueError, KINDS, type KindSpec, type StoredKind } from '../../schemas/kinds.js'
import { holdsStringKey } from '../../schemas/columns.js'
import { INT_TEXT, FLOAT_TEXT, isFilterDatetime } from '../../schemas/values.js'

export { ValueError }
export const FRAMEWORK_PARAMS = new Set(['fields', 'omit', 'page', 'page_size', 'cursor', 'order_by', 'format', 'count', 'fields!'])
const MAX_DEPTH = 4
/** Compiled names kept per resource; beyond this the table is not grown (names still compile). */
const MAX_COMPILED = 5_000

export interface FilterResult { where: Sql[]; errors: Record<string, string[]>; unknown: string[] }
export type FilterCompiler = (params: Map<string, string[]>) => FilterResult
/**
 * One filter parameter, compiled: its values → an SQL condition (throws ValueError). A filter is
 * given one value at a time; a multiple-choice filter all the values of its parameter at once.
 */
interface CompiledFilter { multiple: boolean; condition(values: readonly string[]): Sql }
const single = (f: (value: string) => Sql): CompiledFilter => ({ multiple: false, condition: (vs) => f(vs[0]) })
const within = (f: CompiledFilter, wrap: (inner: Sql) => Sql): CompiledFilter => ({ multiple: f.multiple, condition: (vs) => wrap(f.condition(vs)) })

const DATE_PARTS = { year: [1, 4], month: [6, 2], day: [9, 2] } as const
const TIME_FUNCTIONS = { year: 'toYear', month: 'toMonth', day: 'toDayOfMonth', hour: 'toHour', minute: 'toMinute', second: 'toSecond' } as const
type Part = keyof typeof TIME_FUNCTIONS

const INT64_MAX = 2n ** 63n - 1n
const INT64_MIN = -(2n ** 63n)
const TRUE = sql`1 = 1`
const FALSE = sql`1 = 0`

/** A request value as compared with a column: its SQL operand, or the side of Int64 an integer lies beyond. */
type Operand = Sql | { beyond: 'above' | 'below' }
type Op = '=' | '>' | '>=' | '<' | '<='

/** The reference's (Django's) message for a value that is none of a choice filter's choices. */
export const choiceError = (value: string) => `Select a valid choice. ${value} is not one of the available choices.`

function int64Operand(text: string): Operand {
  const t = text.trim()
  if (!INT_TEXT.test(t)) throw new ValueError('Enter a number.')
  const n = BigInt(t)
  if (n > INT64_MAX) return { beyond: 'above' }
  if (n < INT64_MIN) return { beyond: 'below' }
  // Past 2^53 a JS number rounds (and past 1e21 prints as 1e+21): such values bind as exact text.
  const exact = Number(n)
  return sql`${param(Number.isSafeInteger(exact) ? exact : n.toString(), 'Int64')}`
}

/**
 * How a request value becomes an operand of a column of this kind. Each value is checked to be one
 * ClickHouse can bind, so no request value fails a query: integers beyond Int64 become a side (as
 * Django answers out-of-range integers: all rows or none, never an error), numbers bind as Float64
 * (a whole 1e300 would otherwise be taken for an Int64), date/times must be real instants.
 */
function operandOf(spec: KindSpec): (text: string) => Operand {
  if (spec.ch === 'Int64' || spec.ch === 'Array(Int64)') return int64Operand
  if (spec.ch === 'Float64') {
    return (t) => {
      if (!FLOAT_TEXT.test(t.trim())) throw new ValueError('Enter a number.') // no hex, no Infinity
      return sql`${param(spec.parse(t), 'Float64')}`
    }
  }
  if (spec === KINDS.datetime) {
    return (t) => {
      if (!isFilterDatetime(t)) throw new ValueError('Enter a valid date/time.')
      return spec.sqlValue(spec.parse(t))
    }
  }
  if (spec === KINDS.date) {
    return (t) => {
      const v = spec.parse(t)
      if (t.startsWith('0000')) throw new ValueError('Enter a valid date.') // dates start at year 1
      return spec.sqlValue(v)
    }
  }
  return (t) => spec.sqlValue(spec.parse(t))
}

/** `col op value`; beyond Int64, `=` holds for no row and an order comparison for all rows or none. */
function compare(col: Sql, op: Op, o: Operand): Sql {
  if (o instanceof Sql) return sql`${col} ${raw(op)} ${o}` // op from the union above, never from input
  if (op === '=') return FALSE
  return (o.beyond === 'above') === op.startsWith('<') ? TRUE : FALSE
}
const operands = (os: readonly Operand[]): Sql[] => os.filter((o): o is Sql => o instanceof Sql)

/** The condition of one lookup on one column, as a function of the request value. */
function lookupFilter(spec: KindSpec, kind: StoredKind, col: Sql, lookup: string): ((value: string) => Sql) | undefined {
  const one = operandOf(spec)
  switch (lookup) {
    case 'exact':
      if (kind === 'm2m' || kind === 'strings') return (v) => { const o = one(v); return o instanceof Sql ? sql`has(${col}, ${o})` : FALSE }
      return (v) => compare(col, '=', one(v))
    case 'iexact': return (v) => sql`lower(${col}) = lower(${v})`
    case 'startswith': return (v) => sql`startsWith(${col}, ${v})`
    case 'istartswith': return (v) => sql`startsWith(lower(${col}), lower(${v}))`
    case 'gt': return (v) => compare(col, '>', one(v))
    case 'gte': return (v) => compare(col, '>=', one(v))
    case 'lt': return (v) => compare(col, '<', one(v))
    case 'lte': return (v) => compare(col, '<=', one(v))
    case 'range': return (v) => {
      const parts = v.split(',')
      if (parts.length !== 2) throw new ValueError('Range query expects two values.')
      const [lo, hi] = parts.map(one)
      if (lo instanceof Sql && hi instanceof Sql) return sql`${col} BETWEEN ${lo} AND ${hi}`
      return sql`(${compare(col, '>=', lo)} AND ${compare(col, '<=', hi)})`
    }
    case 'in': return (v) => {
      const os = operands(v.split(',').map(one))
      return os.length ? sql`${col} IN (${join(os, ', ')})` : FALSE
    }
    case 'isnull': return (v) => (KINDS.bool.parse(v) ? sql`${col} IS NULL` : sql`${col} IS NOT NULL`)
    case 'year': case 'month': case 'day': case 'hour': case 'minute': case 'second': {
      // Dates are stored as ISO text: their parts are substrings; timestamps have functions.
      const part = kind === 'date'
        ? sql`toInt32OrNull(substring(${col}, ${DATE_PARTS[lookup as 'year'][0]}, ${DATE_PARTS[lookup as 'year'][1]}))`
        : sql`${raw(TIME_FUNCTIONS[lookup as Part])}(${col})` // function names from the table above, never from input
      return (v) => {
        if (!/^\d+$/.test(v)) throw new ValueError('Enter a number.')
        return compare(part, '=', int64Operand(v))
      }
    }
    default: return undefined
  }
}

/**
 * A multiple-choice filter (`race=w&race=b`): rows whose value is any of the values, or for a list
 * column (people.race) whose list holds any of them. Values come as repeated parameters, as the
 * reference takes them, and also as comma lists (this service's addition; no choice holds a comma).
 * Each value must be a choice; the first that is not is the error, as Django's MultipleChoiceField says.
 */
function multipleFilter(spec: KindSpec, kind: StoredKind, col: Sql, choices: ReadonlySet<string> | undefined): CompiledFilter {
  const one = operandOf(spec)
  return {
    multiple: true,
    condition: (values) => {
      const all = values.flatMap((v) => { const p = v.split(',').filter((x) => x !== ''); return p.length ? p : [v] })
      const bad = choices && all.find((v) => !choices.has(v))
      if (bad !== undefined) throw new ValueError(choiceError(bad))
      const os = operands(all.map(one))
      if (!os.length) return FALSE
      return kind === 'strings' || kind === 'm2m' ? sql`hasAny(${col}, [${join(os, ', ')}])` : sql`${col} IN (${join(os, ', ')})`
    },
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
    // a set lookup per element: hasAny against the gathered array compared every pair (parties of
    // one court's dockets at 1M dockets: 1.4 s against 0.14 s)
    if (link.kind === 'm2m') return (inner) => sql`arrayExists((x) -> x IN (SELECT ${ident(link.targetColumn)} FROM ${from} WHERE ${inner}), ${ident(link.column)})`
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
        if (link.kind === 'fk') { const f = lookupFilter(keySpec, 'int', sql`${ident(link.column)}`, lookup); return f && single(f) }
        if (link.kind === 'm2m' && lookup === 'exact') return single(lookupFilter(keySpec, 'm2m', sql`${ident(link.column)}`, 'exact')!)
        const inner = lookupFilter(keySpec, 'int', sql`${ident(target.key)}`, lookup)
        return inner && single((v) => wrap(inner(v)))
      }
      if (depth >= MAX_DEPTH) return undefined
      const inner = compilePath(target, rest, depth + 1)
      return inner && within(inner, wrap)
    }
    const lookup = rest.length === 0 ? 'exact' : rest.length === 1 ? rest[0] : undefined
    if (!lookup) return undefined
    // A switch (FilterDef.flag) selects no rows: its value is checked, the condition always holds.
    if (fd.flag) return lookup === 'exact' ? single((v) => { KINDS.bool.parse(v); return TRUE }) : undefined
    if (!(fd.lookups ?? []).includes(lookup as never) && !(fd.multiple && lookup === 'exact')) return undefined
    const col = fd.field ?? name
    const [fieldName, def] = Object.entries(r.fields).find(([n, d]) => columnOf(n, d) === col || n === col) ?? []
    if (!def || !fieldName) return undefined
    const kind = def.kind as StoredKind
    const spec = keyed(kind, holdsStringKey(cat, r, fieldName))
    const column = sql`${ident(columnOf(fieldName, def))}`
    // Only the exact lookup of a choice filter checks choices (django-filter makes the others plain
    // filters of the field's kind). The field's own choices are the valid values: a filter's list
    // (OPTIONS) may show groups of them instead, and a group's name is no value.
    const listed = lookup === 'exact' && (fd.multiple || fd.type === 'ChoiceFilter') ? (def.choices ?? fd.choices) : undefined
    const choices = listed && new Set(listed.map((c) => String(c.value)))
    if (fd.multiple && lookup === 'exact') return multipleFilter(spec, kind, column, choices)
    const f = lookupFilter(spec, kind, column, lookup)
    if (!f || !choices) return f && single(f)
    return single((v) => { if (!choices.has(v)) throw new ValueError(choiceError(v)); return f(v) })
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
      for (const values of filter.multiple ? [nonEmpty] : nonEmpty.map((v) => [v])) {
        try {
          const frag = filter.condition(values)
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

/** A parameter that compares one stored column of the resource itself, with no join. */
export interface DirectComparison {
  column: string
  lookup: 'exact' | 'gt' | 'gte' | 'lt' | 'lte' | 'range'
  /** How the column's values compare: as integers, as text (ISO dates and string keys) or as instants. */
  kind: 'int' | 'text' | 'datetime'
}

const DIRECT_LOOKUPS = new Set(['exact', 'gt', 'gte', 'lt', 'lte', 'range'])

/**
 * What `name` compares when it is a plain comparison of a column of `r` (`court` and `court__exact`
 * on dockets compare court_id; `date_filed__gte` compares date_filed), else undefined. For the list
 * planner (list-plan.ts), which answers such filters from the read model's list indexes: the
 * parameter is still compiled and checked by compileFilters; this only says what it means.
 */
export function directComparisonOf(cat: Catalogue, r: ResourceDef, name: string): DirectComparison | undefined {
  const [head, ...rest] = name.split('__')
  const fd = r.filters[head]
  if (!fd || fd.flag || fd.multiple || rest.length > 1) return undefined
  const lookup = rest[0] ?? 'exact'
  if (!DIRECT_LOOKUPS.has(lookup)) return undefined
  if (fd.related) {
    const link = linkOf(cat, r, head, fd)
    if (link?.kind !== 'fk' || lookup !== 'exact') return undefined
    return { column: link.column, lookup, kind: cat.get(fd.related).keyKind === 'string' ? 'text' : 'int' }
  }
  if (!(fd.lookups ?? []).includes(lookup as never)) return undefined
  const col = fd.field ?? head
  const [fieldName, def] = Object.entries(r.fields).find(([n, d]) => columnOf(n, d) === col || n === col) ?? []
  if (!def || !fieldName) return undefined
  const column = columnOf(fieldName, def)
  if (def.kind === 'int') return { column, lookup: lookup as DirectComparison['lookup'], kind: 'int' }
  if (def.kind === 'date' || (def.kind === 'string' && !def.choices)) return { column, lookup: lookup as DirectComparison['lookup'], kind: 'text' }
  if (def.kind === 'datetime') return { column, lookup: lookup as DirectComparison['lookup'], kind: 'datetime' }
  return undefined
}
