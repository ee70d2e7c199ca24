/**
 * The queries of the bulk export, built from the catalogue and `connectors/bulk/tables.ts`:
 *
 * - reference CSV: ClickHouse writes each record as one ready CSV line (a single String column,
 *   output as TSVRaw, so the bytes go straight to the compressor). Every cell is formatted in SQL
 *   exactly as `pg-text.ts` specifies: PostgreSQL's text of the column's type, quoted with `\`
 *   escapes, NULL as an empty field.
 * - Parquet: the table's columns (the reference's names) with their storage types; dates left
 *   empty are NULL, columns we do not store are NULL strings.
 * - JSON lines: a resource's stored fields by their v4 names, what `lds publish` reads back.
 *
 * Every read takes each key's newest version, leaves deletes out (`current`) and orders by the key,
 * so the same data gives the same bytes. Link tables are the parent's array column, one row per element (ARRAY JOIN), ordered by
 * parent id then position, numbered from 1 in that order.
 *
 * All SQL text here is the programmer's (identifiers pass `ident`, constants are literals written
 * here); no value from data or a request is ever part of it.
 */
import { catalogue } from '../../../schemas/catalogue/index.js'
import { columnSpecs, type ColumnSpec } from '../../../schemas/columns.js'
import { columnOf, type ResourceDef } from '../../../schemas/define.js'
import { isStored } from '../../../schemas/kinds.js'
import { sql, ident, qualified, raw, join, type Sql } from '../../../core/sql.js'
import { storageColumn, type BulkTable } from '../tables.js'
import type { PgTextKind } from './pg-text.js'

/** The PostgreSQL text kind a stored column is written as (its type in `referenceSchemaSql`). */
export function textKindOf(spec: ColumnSpec | undefined): PgTextKind {
  if (!spec) return 'text'
  if (spec.kind === 'date') return 'date'
  if (spec.kind === 'datetime') return 'timestamptz'
  if (spec.ch === 'Int64') return 'int'
  if (spec.ch === 'Float64') return 'float'
  if (spec.ch === 'Bool') return 'bool'
  return 'text'
}

const specsOf = (r: ResourceDef) => new Map(columnSpecs(catalogue, r).map((c) => [c.column, c]))
const tableOf = (database: string, r: ResourceDef) => qualified(database, r.table)
const LIVE = raw('`_deleted` = 0')

/**
 * A FROM clause of a resource's current rows: each key's newest version, unless that is a delete,
 * as FINAL gives them. Not FINAL: under the key order an export needs, the server merged FINAL's
 * streams into one before formatting, and the opinions file of 20,000 opinions (~10 KB of text
 * each) took 2.9 s and 715 MB against 0.6 s and 279 MB this way, for the same bytes. The tables
 * are ordered by the key, so this reads in order; on the cluster every version of a key is on one
 * shard. A caller adds no WHERE of its own (it would join this one).
 */
function current(database: string, r: ResourceDef): Sql {
  const key = ident(r.key)
  return sql`(SELECT * FROM ${tableOf(database, r)} ORDER BY ${key}, _version DESC LIMIT 1 BY ${key}) WHERE ${LIVE}`
}

// ---- cells (each a String expression: the cell as it appears between the commas) ----

/** `"…"` with `\` → `\\`, `"` → `\"`, NUL dropped; `s` must not be NULL. */
// The literals are ClickHouse's ('\0' is NUL, '\\' one backslash), each backslash doubled for JavaScript.
const quoted = (s: Sql): Sql => sql`concat('"', replaceAll(replaceAll(replaceAll(${s}, '\\0', ''), '\\\\', '\\\\\\\\'), '"', '\\\\"'), '"')`
/** The same for a possibly NULL value: NULL → empty field. */
const quotedOrNull = (s: Sql): Sql => sql`ifNull(${quoted(s)}, '')`

/**
 * PostgreSQL's double precision text of a non-NULL Float64: ClickHouse's `toString` gives the
 * shortest digits that read back as the value; from 2^53 on, where they can lie exactly halfway to
 * a neighbouring double (which PostgreSQL's Ryu refuses), the first of `printf('%.{p}e')` for
 * longer p that is strictly inside is taken instead, as `pgFloatText` does. The digits are then
 * laid out the way PostgreSQL does (see `placeDigits` in pg-text.ts).
 */
export function pgFloatSql(x: Sql): Sql {
  // `let` binds a value once (a one-element arrayMap), so the expression stays small to analyse.
  const v = (name: string) => raw(name)
  const s = v('_fs'), a = v('_fa'), u = v('_fu'), m = v('_fm'), e = v('_fe'), ip = v('_fi'), all = v('_fl')
  const d0 = v('_fd0'), X0 = v('_fx0'), h = v('_fh'), c = v('_fc'), d = v('_fd'), X = v('_fx'), len = v('_fn')
  const dOf = (cand: Sql | ReturnType<typeof raw>) => sql`trim(TRAILING '0' FROM replaceOne(splitByChar('e', ${cand})[1], '.', ''))`
  const xOf = (cand: Sql | ReturnType<typeof raw>) => sql`toInt64(toInt32OrZero(splitByChar('e', ${cand})[2]))`
  const inside = (dd: Sql | ReturnType<typeof raw>, xx: Sql | ReturnType<typeof raw>) => sql`arrayMap((_id, _ix) -> toFloat64OrZero(concat(substring(_id, 1, 1), '.', substring(_id, 2), repeat('0', _fz), '1e', toString(_ix))) = ${a}
    AND toFloat64OrZero(if(length(_id) = 1,
      concat(toString(toUInt8OrZero(_id) - 1), '.', repeat('9', _fz), 'e', toString(_ix)),
      concat(substring(_id, 1, 1), '.', substring(_id, 2, greatest(length(_id), 2) - 2), toString(toUInt8OrZero(substring(_id, length(_id), 1)) - 1), repeat('9', _fz), 'e', toString(_ix)))) = ${a}, [${dd}], [${xx}])[1]`
  // Only values from 2^53 on need the checks; the others get trivial inputs (both branches of an if are computed).
  const candidates = sql`[${join(Array.from({ length: 16 }, (_, i) => sql`printf(${raw(`'%.${i + 1}e'`)}, if(${h}, ${a}, 0.))`), ', ')}]`
  const sci = sql`concat(substring(${d}, 1, 1), if(${len} > 1, concat('.', substring(${d}, 2)), ''), 'e', if(${X} < 0, '-', '+'), if(abs(${X}) < 10, '0', ''), toString(abs(${X})))`
  const fixed = sql`multiIf(
    ${X} < 0, concat('0.', repeat('0', toUInt64(greatest(0, -${X} - 1))), ${d}),
    ${len} <= ${X} + 1, concat(${d}, repeat('0', toUInt64(greatest(0, ${X} + 1 - ${len})))),
    concat(substring(${d}, 1, toUInt64(greatest(1, ${X} + 1))), '.', substring(${d}, toUInt64(greatest(1, ${X} + 2)))))`
  const layout = sql`arrayMap((${d}, ${X}) -> arrayMap(${len} -> if(${X} < -4 OR ${X} >= 15, ${sci}, ${fixed}), [toInt64(length(${d}))])[1],
    [if(${h}, ${dOf(c)}, ${d0})], [if(${h}, ${xOf(c)}, ${X0})])[1]`
  // Shortest: digits d0 (no leading or trailing zeros) and exponent X0 of d1.d2… × 10^X0; from
  // 2^53 on, when they are halfway to a neighbour (h), the first longer printf candidate strictly inside (c).
  const digits = sql`arrayMap((${d0}, ${X0}) -> if(${d0} = '', '0',
      arrayMap(${h} -> arrayMap(${c} -> ${layout}, [if(${h}, arrayFirst(_cc -> ${inside(dOf(raw('_cc')), xOf(raw('_cc')))}, ${candidates}), '')])[1],
        [${a} >= 9007199254740992 AND NOT ${inside(d0, X0)}])[1]),
    [trim(BOTH '0' FROM ${all})], [${e} + toInt64(length(${ip})) - 1 - (toInt64(length(${all})) - toInt64(length(trim(LEADING '0' FROM ${all}))))])[1]`
  const parsed = sql`arrayMap((${m}, ${e}) -> arrayMap((${ip}, ${all}) -> ${digits}, [splitByChar('.', ${m})[1]], [concat(splitByChar('.', ${m})[1], splitByChar('.', ${m})[2])])[1],
    [splitByChar('e', ${u})[1]], [toInt64(toInt32OrZero(splitByChar('e', ${u})[2]))])[1]`
  return sql`arrayMap((${s}, ${a}, _fz) -> multiIf(
    ${s} = 'nan' OR ${s} = '-nan', 'NaN', ${s} = 'inf', 'Infinity', ${s} = '-inf', '-Infinity',
    arrayMap(${u} -> concat(if(startsWith(${s}, '-'), '-', ''), ${parsed}), [if(startsWith(${s}, '-'), substring(${s}, 2), ${s})])[1]),
    [toString(${x})], [abs(${x})], [if(abs(${x}) >= 9007199254740992, 400, 0)])[1]`
}

/** The CSV cell of a column expression `x` of a text kind; `nullable` says `x` may be NULL. */
export function cellSql(kind: PgTextKind, x: Sql, nullable: boolean): Sql {
  const v = nullable ? sql`assumeNotNull(${x})` : x
  const orNull = (cell: Sql) => (nullable ? sql`if(isNull(${x}), '', ${cell})` : cell)
  switch (kind) {
    case 'text': return nullable ? quotedOrNull(x) : quoted(x)
    case 'int': return orNull(sql`concat('"', toString(${v}), '"')`)
    case 'bool': return orNull(sql`if(${v}, '"t"', '"f"')`)
    // A date a record left out is stored empty: NULL.
    case 'date': return sql`if(ifNull(${x}, '') = '', '', ${quoted(v)})`
    case 'timestamptz': return orNull(sql`concat('"', replaceRegexpOne(formatDateTime(${v}, '%Y-%m-%d %H:%i:%S.%f', 'UTC'), '\\\\.?0+$', ''), '+00"')`)
    case 'float': return orNull(sql`concat('"', ${pgFloatSql(v)}, '"')`)
  }
}

const line = (cells: Sql[]): Sql => sql`concat(${join(cells.flatMap((c, i) => (i ? [sql`','`, c] : [c])), ', ')})`

/** A cell of a stored column, or NULL for a column the resource does not store. */
function storedCell(specs: Map<string, ColumnSpec>, column: string): Sql {
  const spec = specs.get(column)
  if (!spec) return sql`''`
  return cellSql(textKindOf(spec), sql`${ident(column)}`, spec.nullable)
}

export interface LinkSource {
  /** FROM clause yielding `k` (parent key), `v` (child value), `pos` (1-based position), ordered later by k, pos. */
  from: Sql
  parentKind: PgTextKind
  childKind: PgTextKind
  /** Elements whose code has no row in the code table (left out of the file). */
  unmapped?: Sql
}

/** The rows of a link table: the parent's array column, one row per element. */
export function linkSource(database: string, t: BulkTable): LinkSource {
  if (t.target.kind !== 'link') throw new Error(`${t.table} is not a link table`)
  const r = catalogue.get(t.target.resource)
  const spec = specsOf(r).get(t.target.column)!
  const parentKind: PgTextKind = r.keyKind === 'string' ? 'text' : 'int'
  const arr = ident(t.target.column)
  const parents = sql`(SELECT ${ident(r.key)} AS k, ${arr} AS arr FROM ${current(database, r)})`
  const exploded = sql`SELECT k, v, pos FROM ${parents} ARRAY JOIN arr AS v, arrayEnumerate(arr) AS pos`
  if (!t.target.codes) {
    return { from: sql`(${exploded})`, parentKind, childKind: spec.ch.includes('String') ? 'text' : 'int' }
  }
  // Codes (people.race holds 'w', 'b', …) become the ids the code table gives them.
  const codes = catalogue.get(t.target.codes)
  const codeColumn = columnSpecs(catalogue, codes).find((c) => c.column !== codes.key)!.column
  const table = sql`(SELECT groupArray(${ident(codeColumn)}) AS codes, groupArray(${ident(codes.key)}) AS ids FROM (SELECT ${ident(codeColumn)}, ${ident(codes.key)} FROM ${current(database, codes)} ORDER BY ${ident(codes.key)}))`
  const codesOf = sql`SELECT k, v AS code, pos FROM (${exploded})`
  const at = sql`indexOf((SELECT codes FROM ${table}), code)`
  const mapped = sql`(SELECT k, (SELECT ids FROM ${table})[${at}] AS v, pos FROM (${codesOf}) WHERE ${at} > 0)`
  const unmapped = sql`SELECT count() AS n FROM (${codesOf}) WHERE ${at} = 0`
  return { from: mapped, parentKind, childKind: 'int', unmapped }
}

/** The reference-CSV lines of a table (without the header), as one String column `line`, in export order. */
export function csvLinesQuery(database: string, t: BulkTable): Sql {
  if (t.target.kind === 'link') {
    const src = linkSource(database, t)
    const cells = [
      sql`concat('"', toString(row_number() OVER (ORDER BY k, pos)), '"')`,
      cellSql(src.parentKind, sql`k`, false),
      cellSql(src.childKind, sql`v`, false),
    ]
    return sql`SELECT ${line(cells)} AS line FROM ${src.from} ORDER BY k, pos`
  }
  const r = catalogue.get(t.target.resource)
  const specs = specsOf(r)
  const cells = t.columns.map((c) => storedCell(specs, storageColumn(t, c)))
  return sql`SELECT ${line(cells)} AS line FROM ${current(database, r)} ORDER BY ${ident(r.key)}`
}

/** The header line of a table's file (COPY writes the names unquoted). */
export const csvHeader = (t: BulkTable): string => t.columns.join(',') + '\n'

/** The number of rows a table's file will have (for progress). */
export function countQuery(database: string, t: BulkTable): Sql {
  if (t.target.kind === 'link') return sql`SELECT count() AS n FROM ${linkSource(database, t).from}`
  const r = catalogue.get(t.target.resource)
  return sql`SELECT count() AS n FROM ${current(database, r)}`
}

/** A table's columns with storage types, by the reference's names, for Parquet. */
export function parquetQuery(database: string, t: BulkTable): Sql {
  if (t.target.kind === 'link') {
    const src = linkSource(database, t)
    const [id, parent, child] = [t.columns[0], t.target.parent, t.target.child]
    return sql`SELECT toInt64(row_number() OVER (ORDER BY k, pos)) AS ${ident(id)}, k AS ${ident(parent)}, v AS ${ident(child)} FROM ${src.from} ORDER BY k, pos`
  }
  const r = catalogue.get(t.target.resource)
  const specs = specsOf(r)
  const cols = t.columns.map((c) => {
    const spec = specs.get(storageColumn(t, c))
    if (!spec) return sql`CAST(NULL AS Nullable(String)) AS ${ident(c)}`
    if (spec.kind === 'date') return sql`nullIf(${ident(spec.column)}, '') AS ${ident(c)}`
    return sql`${ident(spec.column)} AS ${ident(c)}`
  })
  return sql`SELECT ${join(cols, ', ')} FROM ${current(database, r)} ORDER BY ${ident(r.key)}`
}

/** A resource's stored fields by their v4 names (fk `docket` → its id), as `lds publish` reads them. */
export function jsonlQuery(database: string, resource: string): Sql {
  const r = catalogue.storageOf(catalogue.get(resource))
  const cols = Object.entries(r.fields).filter(([, d]) => isStored(d.kind)).map(([name, d]) => sql`${ident(columnOf(name, d))} AS ${ident(name)}`)
  return sql`SELECT ${join(cols, ', ')} FROM ${current(database, r)} ORDER BY ${ident(r.key)}`
}

export const countResourceQuery = (database: string, resource: string): Sql =>
  sql`SELECT count() AS n FROM ${current(database, catalogue.storageOf(catalogue.get(resource)))}`
