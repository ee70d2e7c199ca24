/**
 * The table sink's RowBinary insert (core/clickhouse-row-binary.ts) against a real ClickHouse: the
 * same rows inserted as JSON (the sink's former path) and as RowBinary into two tables of every
 * column type the catalogue stores read back identical, hostile values included: nulls in columns
 * that are not Nullable, datetimes in the forms a JSON insert's best-effort parser takes, texts
 * with quotes, backslashes, NUL, CR/LF and astral characters, the extreme integers.
 */
import t from 'tap'
import { sql, ident, raw } from '../../core/sql.js'
import { allTables } from '../../schemas/tables.js'
import { catalogue } from '../../schemas/catalogue/index.js'
import { scratchDatabase } from '../helpers/scratch-db.js'

const COLUMNS = [
  { name: 'id', type: 'Int64' }, { name: 'i', type: 'Int64' }, { name: 'ni', type: 'Nullable(Int64)' },
  { name: 's', type: 'String' }, { name: 'ns', type: 'Nullable(String)' }, { name: 'b', type: 'Bool' }, { name: 'nb', type: 'Nullable(Bool)' },
  { name: 'f', type: 'Float64' }, { name: 'nf', type: 'Nullable(Float64)' },
  { name: 'dt', type: "DateTime64(6, 'UTC')" }, { name: 'ndt', type: "Nullable(DateTime64(6, 'UTC'))" },
  { name: 'ai', type: 'Array(Int64)' }, { name: 'as', type: 'Array(String)' },
  { name: '_version', type: 'UInt64' }, { name: '_deleted', type: 'UInt8' },
]

const TEXTS = ['', 'plain', 'a "quoted" \\back\\slash `tick`', 'line\r\nbreak\ttab', 'nul\u0000inside', 'Ünïcödé – “typographic” 𝄞 😀', 'x'.repeat(1 << 20), 'é'.repeat(43)]
const TIMES = ['2024-03-01T04:30:00Z', '2024-03-01T04:30:00.123456Z', '2024-03-01T04:30:00.1234567Z', '2024-03-01T04:30:00+05:30', '2024-03-01T23:59:59.5-08:00', '2024-03-01 04:30:00', '2024-03-01', '1969-07-20T20:17:40Z', '2299-12-31T23:59:59.999999Z']
const INTS = [0, 1, -1, 2 ** 31, -(2 ** 31) - 1, 2 ** 32 + 5, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]

function rows(): unknown[][] {
  const out: unknown[][] = []
  for (let k = 0; k < 60; k++) {
    const pick = <T>(xs: T[], n = k) => xs[n % xs.length]
    out.push([
      k + 1, pick(INTS), k % 4 === 0 ? null : pick(INTS, k + 3),
      pick(TEXTS), k % 3 === 0 ? null : pick(TEXTS, k + 1), k % 2 === 0, k % 5 === 0 ? null : k % 2 === 1,
      pick([0, -0, 1.5, -2.25e-300, 1e308, 0.1 + 0.2]), k % 6 === 0 ? null : pick([3.75, -1]),
      pick(TIMES), k % 3 === 1 ? null : pick(TIMES, k + 2),
      pick([[], [1], [-5, Number.MAX_SAFE_INTEGER, 0]]), pick([[], ['a'], ['', 'b"c', 'd\ne']]),
      2 ** 40 + k, k % 7 === 0 ? 1 : 0,
    ])
  }
  // nulls and missing values in columns that are not Nullable: each column's default, as JSON gives
  out.push([1000, null, null, null, null, null, null, null, null, null, null, null, null, 1, 0])
  out.push([1001, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, 2, 0])
  return out
}

t.test('RowBinary and JSON inserts of the same rows read back the same', async (t) => {
  const db = await scratchDatabase(t, `t_rowbinary_${process.pid}_${Date.now().toString(36)}`)
  const cols = COLUMNS.map((c) => `\`${c.name}\` ${c.type}`).join(', ')
  for (const name of ['as_json', 'as_binary']) await db.command(sql`CREATE TABLE ${ident(db.database)}.${ident(name)} (${raw(cols)}) ENGINE = MergeTree ORDER BY id`)
  const data = rows()
  await db.insertCompact('as_json', COLUMNS.map((c) => c.name), data)
  await db.insertRows('as_binary', COLUMNS, data)
  const read = (name: string) => db.query<Record<string, unknown>>(sql`SELECT * FROM ${ident(db.database)}.${ident(name)} ORDER BY id`, { settings: { output_format_json_quote_64bit_integers: 1 } })
  const [json, binary] = await Promise.all([read('as_json'), read('as_binary')])
  t.equal(binary.length, data.length, 'every row')
  t.same(binary, json, 'each value as the JSON insert stored it')
  t.match(binary.at(-1), { i: '0', s: '', b: false, f: 0, dt: '1970-01-01T00:00:00.000000Z', ai: [], as: [] }, 'nulls in plain columns are their defaults')
  t.equal(binary.find((r) => r.s === TEXTS[4])?.s, TEXTS[4], 'a NUL inside a text survives')
})

t.test('every stored table of the catalogue has a RowBinary writer for each of its columns', async (t) => {
  const db = await scratchDatabase(t, `t_rowbinary_cat_${process.pid}_${Date.now().toString(36)}`)
  const tables = allTables(catalogue).filter((x) => catalogue.resources.some((r) => r.table === x.name))
  t.ok(tables.length > 40, `${tables.length} tables`)
  for (const table of tables) {
    const cols = table.columns.map((c) => `\`${c.name}\` ${c.type}`).join(', ')
    await db.command(sql`CREATE TABLE ${ident(db.database)}.${ident(table.name)} (${raw(cols)}) ENGINE = MergeTree ORDER BY tuple()`)
    // one row of nothing but nulls: each column at its default or NULL, accepted by the server
    await db.insertRows(table.name, table.columns, [table.columns.map((c) => (c.name === '_version' ? 1 : null))])
    const [row] = await db.query<{ n: number }>(sql`SELECT count() AS n FROM ${ident(db.database)}.${ident(table.name)}`)
    if (Number(row.n) !== 1) t.fail(`${table.name}: ${row.n} rows`)
  }
})
