/** The bulk export's value encoding (PostgreSQL's COPY CSV text), its record counter, queries and Parquet footer. */
import t from 'tap'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { quoteCsv, pgFloatText, pgTimestampText, pgCsvCell, pgCsvLine, placeDigits, CsvRecordCounter } from '../../../connectors/bulk/export/pg-text.js'
import { csvLinesQuery, csvHeader, parquetQuery, jsonlQuery, textKindOf, cellSql } from '../../../connectors/bulk/export/queries.js'
import { selectTables, selectResources } from '../../../connectors/bulk/export/index.js'
import { parquetRowCount } from '../../../connectors/bulk/export/parquet-footer.js'
import { BULK_TABLES, bulkTableNamed, unstoredColumns } from '../../../connectors/bulk/tables.js'
import { compile, sql } from '../../../core/sql.js'

t.test('quoting: FORCE_QUOTE * with ESCAPE \'\\\'', async (t) => {
  t.equal(quoteCsv(''), '""', 'the empty string is quoted')
  t.equal(quoteCsv('plain'), '"plain"')
  t.equal(quoteCsv('say "hi"'), '"say \\"hi\\""', 'a quote is escaped with a backslash, not doubled')
  t.equal(quoteCsv('C:\\dir\\'), '"C:\\\\dir\\\\"', 'a backslash is doubled, also at the end')
  t.equal(quoteCsv('\\"'), '"\\\\\\""')
  t.equal(quoteCsv('a,b\r\nc\nd'), '"a,b\r\nc\nd"', 'commas, CR and LF kept as they are')
  t.equal(quoteCsv('`tick` \'single\''), '"`tick` \'single\'"', 'backticks and apostrophes kept')
  t.equal(quoteCsv('é ✓ 𝄞'), '"é ✓ 𝄞"', 'Unicode kept')
  t.equal(quoteCsv('a\0b'), '"ab"', 'NUL, which PostgreSQL text cannot hold, is dropped')
  t.equal(quoteCsv('\\N'), '"\\\\N"', 'the text format\'s NULL marker is just text')
})

t.test('double precision as PostgreSQL 15 prints it', async (t) => {
  // Each pair: the value, then what PostgreSQL 15 printed for it (SELECT x::float8::text).
  const cases: [number, string][] = [
    [0.1, '0.1'], [1e20, '1e+20'], [1e21, '1e+21'], [1e15, '1e+15'], [1e14, '100000000000000'],
    [123456789012345.6, '123456789012345.6'], [1234567890123456.7, '1.2345678901234568e+15'], [1e-4, '0.0001'],
    [1e-5, '1e-05'], [0.00012345, '0.00012345'], [1.5e-7, '1.5e-07'], [0, '0'], [-0, '-0'], [5e-324, '5e-324'],
    [1.7976931348623157e308, '1.7976931348623157e+308'], [100, '100'], [2 / 3, '0.6666666666666666'], [1e16, '1e+16'],
    [12345678.9, '12345678.9'], [999999999999999.9, '999999999999999.9'], [1e-300, '1e-300'], [123e-10, '1.23e-08'],
    [-1.5, '-1.5'], [NaN, 'NaN'], [Infinity, 'Infinity'], [-Infinity, '-Infinity'],
    // The shortest digits are exactly halfway to a neighbour: PostgreSQL takes a longer decimal.
    [1e23, '9.999999999999999e+22'], [-5.814550646867614e+16, '-5.8145506468676144e+16'], [4.292949018223534e+16, '4.2929490182235344e+16'],
    [1.713508486896924e+17, '1.7135084868969242e+17'], [1.81372428103438e+17, '1.8137242810343802e+17'],
  ]
  for (const [x, want] of cases) t.equal(pgFloatText(x), want, `${x} → ${want}`)
  t.equal(placeDigits('15', 2), '150')
  t.equal(placeDigits('15', 0), '1.5')
  t.equal(placeDigits('15', -3), '0.0015')
  t.equal(placeDigits('15', 15), '1.5e+15')
  t.equal(placeDigits('1', -5), '1e-05')
  t.equal(placeDigits('1', 100), '1e+100')
})

t.test('timestamps: PostgreSQL\'s text at UTC', async (t) => {
  t.equal(pgTimestampText('2025-03-05T06:07:08.654321Z'), '2025-03-05 06:07:08.654321+00')
  t.equal(pgTimestampText('2025-03-05T06:07:08.650000Z'), '2025-03-05 06:07:08.65+00', 'trailing zeros of the fraction dropped')
  t.equal(pgTimestampText('2025-03-05 06:07:08.000000'), '2025-03-05 06:07:08+00', 'no fraction when it is zero')
  t.equal(pgTimestampText('2025-03-05T06:07:08+00:00'), '2025-03-05 06:07:08+00')
  t.equal(pgTimestampText('1970-01-01 00:00:00'), '1970-01-01 00:00:00+00')
  t.equal(pgTimestampText('2025-03-05T06:07:08+05:30'), undefined, 'only UTC')
  t.equal(pgTimestampText('yesterday'), undefined)
})

t.test('cells and lines: NULL vs empty, booleans, dates', async (t) => {
  t.equal(pgCsvCell('text', null), '', 'NULL: empty and unquoted')
  t.equal(pgCsvCell('text', ''), '""', 'empty string: quoted')
  t.equal(pgCsvCell('int', 42), '"42"')
  t.equal(pgCsvCell('int', null), '')
  t.equal(pgCsvCell('bool', true), '"t"')
  t.equal(pgCsvCell('bool', false), '"f"')
  t.equal(pgCsvCell('bool', null), '')
  t.equal(pgCsvCell('date', '1789-09-24'), '"1789-09-24"')
  t.equal(pgCsvCell('date', ''), '', 'a date left empty is NULL (it is no date)')
  t.equal(pgCsvCell('timestamptz', '2025-03-05T06:07:08.100000Z'), '"2025-03-05 06:07:08.1+00"')
  t.equal(pgCsvCell('float', 1e20), '"1e+20"')
  t.throws(() => pgCsvCell('timestamptz', 'soon'))
  t.equal(pgCsvLine(['int', 'text', 'text', 'bool'], [1, null, 'a "b"\n', false]), '"1",,"a \\"b\\"\n","f"')
})

t.test('the record counter: newlines inside quotes and escaped quotes do not end a record', async (t) => {
  const text = 'id,text\n"1","a\nb"\n"2","say \\"x\\"\n,\\\\"\n"3",\n"4","\\\\\\""\n'
  const whole = new CsvRecordCounter()
  whole.push(Buffer.from(text))
  t.equal(whole.records, 5, 'the header and four records')
  // Every split of the bytes into two chunks counts the same.
  const bytes = Buffer.from(text)
  for (let i = 0; i <= bytes.length; i++) {
    const c = new CsvRecordCounter()
    c.push(bytes.subarray(0, i))
    c.push(bytes.subarray(i))
    if (c.records !== 5) t.fail(`split at ${i}: ${c.records}`)
  }
  const byByte = new CsvRecordCounter()
  for (const b of bytes) byByte.push(Uint8Array.of(b))
  t.equal(byByte.records, 5, 'byte by byte')
  t.ok(byByte.complete, 'ends at the end of a record')
  const cut = new CsvRecordCounter()
  cut.push(Buffer.from('id\n"1","open\n'))
  t.notOk(cut.complete, 'ends inside a quoted value: incomplete')
  const noNewline = new CsvRecordCounter()
  noNewline.push(Buffer.from('id\n"1"'))
  t.notOk(noNewline.complete, 'ends mid-line: incomplete')
})

t.test('queries: bound nothing, each key\'s newest version, live rows, ordered by key, database names back', async (t) => {
  const opinions = bulkTableNamed('opinions')!
  const q = compile(csvLinesQuery('db1', opinions))
  t.same(q.query_params, {}, 'no values in the export queries')
  t.match(q.query, /FROM \(SELECT \* FROM `db1`\.`opinions` ORDER BY `id`, _version DESC LIMIT 1 BY `id`\) WHERE `_deleted` = 0 ORDER BY `id`$/)
  t.match(q.query, /`html_partner_a`/, 'storage names of renamed columns')
  t.equal(csvHeader(opinions), opinions.columns.join(',') + '\n', 'the header is the database\'s names')
  const pq = compile(parquetQuery('db1', opinions)).query
  t.match(pq, /`html_partner_a` AS `html_lawbox`/, 'Parquet columns by the database\'s names')
  const dockets = compile(parquetQuery('db1', bulkTableNamed('dockets')!)).query
  for (const c of unstoredColumns(bulkTableNamed('dockets')!)) t.match(dockets, `CAST(NULL AS Nullable(String)) AS \`${c}\``, `unstored column ${c} is NULL`)
  t.match(compile(csvLinesQuery('db1', bulkTableNamed('courts')!)).query, '`records_court_id`', 'pacer → records in storage names')
  t.match(dockets, /nullIf\(`date_filed`, ''\) AS `date_filed`/, 'dates left empty are NULL')
  const panel = compile(csvLinesQuery('db1', bulkTableNamed('search_opinioncluster_panel')!)).query
  t.match(panel, /row_number\(\) OVER \(ORDER BY k, pos\)/, 'link ids: row numbers by parent then position')
  t.match(panel, /ARRAY JOIN arr AS v, arrayEnumerate\(arr\) AS pos/)
  t.match(panel, /ORDER BY k, pos$/)
  const races = compile(csvLinesQuery('db1', bulkTableNamed('people_db_person_race')!)).query
  t.match(races, /FROM `db1`\.`races` ORDER BY `id`, _version DESC LIMIT 1 BY `id`/, 'race codes go through the races table')
  const jl = compile(jsonlQuery('db1', 'opinions')).query
  t.match(jl, /`cluster_id` AS `cluster`/, 'JSON lines in v4 field names')
  t.match(jl, /`joined_by_ids` AS `joined_by`/)
  t.equal(textKindOf(undefined), 'text')
  t.match(compile(cellSql('text', sql`x`, true)).query, /^ifNull\(/, 'a nullable text cell is empty when NULL')
})

t.test('selecting tables: file, table or resource names', async (t) => {
  t.equal(selectTables().length, 33)
  t.same(selectTables(['opinions', 'courts']).map((x) => x.table), ['search_court', 'search_opinion', 'search_opinion_joined_by', 'search_court_appeals_to'])
  t.same(selectTables(['search_opinioncluster_panel']).map((x) => x.file), ['search_opinioncluster_panel'])
  t.same(selectTables(['people-db-races']).map((x) => x.table), ['people_db_person_race'])
  t.same(selectTables(['clusters']).map((x) => x.n), [9, 10, 11], 'a resource brings its link tables')
  t.same(selectResources(['people-db-races', 'opinions']), ['opinions', 'people'])
  t.throws(() => selectTables(['nope']), /unknown table or resource nope/)
  t.equal(new Set(BULK_TABLES.map((x) => x.target.resource)).size, selectResources().length)
})

t.test('Parquet footer: the row count', async (t) => {
  // FileMetaData { 1: version = 1, 2: schema = [], 3: num_rows = 12345, 4: row_groups = [] }, Thrift compact.
  const meta = Buffer.from([0x15, 0x02, 0x19, 0x0c, 0x16, 0xf2, 0xc0, 0x01, 0x19, 0x0c, 0x00])
  const len = Buffer.alloc(4)
  len.writeUInt32LE(meta.length)
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'pq-')), 'x.parquet')
  writeFileSync(file, Buffer.concat([Buffer.from('PAR1'), meta, len, Buffer.from('PAR1')]))
  t.equal(parquetRowCount(file), 12345)
  writeFileSync(file, 'not parquet at all')
  t.throws(() => parquetRowCount(file), /not a Parquet file/)
})
