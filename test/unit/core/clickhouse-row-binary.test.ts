import t from 'tap'
import { rowBinaryInsert } from '../../../core/clickhouse-row-binary.js'

const bytes = (chunks: Buffer[]) => Buffer.concat(chunks)
const hex = (chunks: Buffer[]) => bytes(chunks).toString('hex')

t.test('numbers, booleans and strings in the layout ClickHouse reads', async (t) => {
  const ins = rowBinaryInsert('`d`.`t`', [
    { name: 'a', type: 'Int64' }, { name: 'b', type: 'UInt8' }, { name: 'c', type: 'Bool' },
    { name: 'd', type: 'Float64' }, { name: 'e', type: 'String' }, { name: 'f', type: 'UInt64' },
  ])
  t.equal(ins.query, 'INSERT INTO `d`.`t` (`a`, `b`, `c`, `d`, `e`, `f`) FORMAT RowBinary', 'no datetime: straight into the table')
  t.equal(hex(ins.encode([[-2, 7, true, 1.5, 'hé', 2 ** 40 + 3]])),
    'feffffffffffffff' + '07' + '01' + '000000000000f83f' + '0368c3a9' + '0300000000010000')
  // a JSON insert reads null as the column's default
  t.equal(hex(ins.encode([[null, undefined, null, null, null, null]])), '0000000000000000' + '00' + '00' + '0000000000000000' + '00' + '0000000000000000')
  // and a number or boolean as the text of a String column
  t.equal(hex(ins.encode([[0, 0, false, 0, 12, 0]])).slice(36, 42), '023132')
})

t.test('Nullable columns, arrays, and long or non-ASCII strings', async (t) => {
  const ins = rowBinaryInsert('`d`.`t`', [{ name: 'n', type: 'Nullable(Int64)' }, { name: 'a', type: 'Array(Int64)' }, { name: 's', type: 'Array(String)' }, { name: 'x', type: 'Nullable(String)' }])
  t.equal(hex(ins.encode([[null, [1, 2], ['x'], null]])), '01' + '02' + '0100000000000000' + '0200000000000000' + '01' + '0178' + '01')
  t.equal(hex(ins.encode([[5, null, [], 'y']])), '00' + '0500000000000000' + '00' + '00' + '00' + '0179', 'null array as []')
  for (const s of ['a'.repeat(42), 'é'.repeat(42), '€'.repeat(42), 'a'.repeat(127), 'a'.repeat(128), '𝄞'.repeat(5000), 'x'.repeat(3_000_000)]) {
    const out = bytes(rowBinaryInsert('t', [{ name: 's', type: 'String' }]).encode([[s]]))
    let n = 0, shift = 0, at = 0
    for (;;) { const b = out[at++]; n += (b & 0x7f) * 2 ** shift; shift += 7; if (b < 0x80) break }
    t.equal(n, Buffer.byteLength(s), `length prefix of a ${s.length}-unit string`)
    t.equal(out.subarray(at).toString('utf8'), s, 'its bytes follow')
  }
})

t.test('many rows come back as chunks that concatenate to the rows in order', async (t) => {
  const ins = rowBinaryInsert('t', [{ name: 'i', type: 'Int64' }, { name: 's', type: 'String' }])
  const rows = Array.from({ length: 20_000 }, (_, i) => [i, 'text '.repeat(i % 50)])
  const chunks = ins.encode(rows)
  t.ok(chunks.length > 1, `${chunks.length} chunks`)
  const all = bytes(chunks)
  let at = 0
  for (const [i, s] of rows as [number, string][]) {
    if (all.readUInt32LE(at) !== i) { t.fail(`row ${i}`); return }
    at += 8
    const n = all[at] < 0x80 ? all[at++] : (at += 2, (all[at - 2] & 0x7f) + all[at - 1] * 128)
    if (all.subarray(at, at + n).toString() !== s) { t.fail(`row ${i} text`); return }
    at += n
  }
  t.equal(at, all.length, 'every byte accounted for')
})

t.test('datetimes are text the server parses, as a JSON insert does', async (t) => {
  const ins = rowBinaryInsert('`d`.`t`', [{ name: 'id', type: 'Int64' }, { name: 'at', type: "DateTime64(6, 'UTC')" }, { name: 'maybe', type: "Nullable(DateTime64(6, 'UTC'))" }])
  t.match(ins.query, /^INSERT INTO `d`.`t` \(`id`, `at`, `maybe`\) SELECT `id`, parseDateTime64BestEffort\(`at`, 6, 'UTC'\), if\(isNull\(`maybe`\), NULL, parseDateTime64BestEffort\(ifNull\(`maybe`, '1970-01-01 00:00:00'\), 6, 'UTC'\)\) FROM input\('`id` Int64, `at` String, `maybe` Nullable\(String\)'\) FORMAT RowBinary$/)
  t.equal(bytes(ins.encode([[1, '2024-03-01T04:30:00.5+02:00', null]])).subarray(8).toString('latin1'), '\x1b2024-03-01T04:30:00.5+02:00\x01')
  t.equal(bytes(ins.encode([[1, null, '2024-01-01']])).subarray(8).toString('latin1'), '\x131970-01-01 00:00:00\x00\x0a2024-01-01', 'null in a plain column: the epoch, as a JSON insert gives')
})

t.test('what cannot be written is refused with the column named', async (t) => {
  t.throws(() => rowBinaryInsert('t', [{ name: 'm', type: 'Map(String, String)' }]), /column m: type Map\(String, String\) has no RowBinary writer/)
  t.throws(() => rowBinaryInsert('t', [{ name: 'a', type: 'Nullable(Array(Int64))' }]), /no RowBinary writer/)
  t.throws(() => rowBinaryInsert('t', [{ name: 'a b', type: 'Int64' }]), /invalid SQL identifier: "a b"/)
  const ins = rowBinaryInsert('t', [{ name: 'i', type: 'Int64' }, { name: 'u', type: 'UInt8' }, { name: 'b', type: 'Bool' }, { name: 'a', type: 'Array(Int64)' }, { name: 's', type: 'String' }])
  t.throws(() => ins.encode([['x', 0, false, [], '']]), /column i \(Int64\): cannot write "x"/)
  t.throws(() => ins.encode([[1.5, 0, false, [], '']]), /column i/)
  t.throws(() => ins.encode([[2 ** 60, 0, false, [], '']]), /column i/, 'beyond what a double holds exactly')
  t.throws(() => ins.encode([[1, 300, false, [], '']]), /column u/)
  t.throws(() => ins.encode([[1, 0, 'maybe', [], '']]), /column b/)
  t.throws(() => ins.encode([[1, 0, false, [1, null], '']]), /column a/)
  t.throws(() => ins.encode([[1, 0, false, [], { an: 'object' }]]), /column s/)
  t.throws(() => ins.encode([[1, 0, false, []]]), /a row of 4 values for 5 columns/)
  t.same(ins.encode([['12', '1', 'true', ['3'], 'ok']]).length, 1, 'numbers as text are read as a JSON insert reads them')
})
