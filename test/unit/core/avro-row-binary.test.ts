import t from 'tap'
import avro from 'avsc'
import { compileRowTranscoder, coalesce, RowSlab, type RowTranscoder } from '../../../core/avro-row-binary.js'
import { rowBinaryInsert } from '../../../core/clickhouse-row-binary.js'
import { catalogue } from '../../../schemas/catalogue/index.js'
import { toAvro } from '../../../schemas/avro.js'
import { validateEntityEvent, wireEncode, type EntityEvent } from '../../../schemas/events/index.js'
import { eventsToRows, sinkColumns } from '../../../streams/table-sink.js'
import type { ResourceDef } from '../../../schemas/define.js'

/** A small deterministic generator, so that a failure names a seed that reproduces it. */
function rng(seed: number) {
  let s = seed >>> 0 || 1
  return () => { s ^= s << 13; s ^= s >>> 17; s ^= s << 5; return (s >>> 0) / 4294967296 }
}

const TEXTS = ['', 'A v. B', 'quote " backslash \\ backtick ` comma ,', 'line\r\nbreak', 'Ünïcødé — § 1983 😀', 'x'.repeat(5000), '\u0000nul']

/** A random value of one Avro field type, as avsc takes it. */
function valueOf(type: unknown, rand: () => number): unknown {
  if (Array.isArray(type)) return rand() < 0.3 ? null : valueOf(type[1], rand)
  if (typeof type === 'object' && type && (type as { type: string }).type === 'array') {
    const n = Math.floor(rand() * 4)
    return Array.from({ length: n }, () => valueOf((type as { items: unknown }).items, rand))
  }
  switch (type) {
    case 'long': {
      const pick = rand()
      if (pick < 0.2) return 0
      if (pick < 0.4) return -Math.floor(rand() * 1e6)
      if (pick < 0.6) return Math.floor(rand() * 2 ** 53) - 2 ** 52
      return Math.floor(rand() * 300)
    }
    case 'string': return TEXTS[Math.floor(rand() * TEXTS.length)]
    case 'double': return (rand() - 0.5) * 10 ** Math.floor(rand() * 12)
    case 'boolean': return rand() < 0.5
  }
  throw new Error(`no generator for ${JSON.stringify(type)}`)
}

interface Setup { r: ResourceDef; type: avro.Type; transcode: RowTranscoder; encodeRows: (rows: unknown[][]) => Buffer }

function setup(r: ResourceDef, schema: Record<string, unknown> = toAvro(catalogue, r)): Setup {
  const type = avro.Type.forSchema(schema as avro.Schema)
  const columns = sinkColumns(catalogue, r)
  // The schema as the registry hands it back (avsc's own rendering), as the sink compiles it.
  const transcode = compileRowTranscoder(type.schema(), columns, r.key)
  if (!transcode) throw new Error(`no transcoder for ${r.name}`)
  const insert = rowBinaryInsert('`t`', columns)
  return { r, type, transcode, encodeRows: (rows) => Buffer.concat(insert.encode(rows)) }
}

/** The generic path: Avro decoded to objects, validated, made rows, encoded. */
function generic(s: Setup, wire: Buffer): Buffer {
  const event = validateEntityEvent(s.type.fromBuffer(wire.subarray(5)), s.r.key)
  return s.encodeRows(eventsToRows(catalogue, [{ event, resource: s.r }]).get(s.r.table)!.upserts)
}

function randomEvent(s: Setup, rand: () => number): EntityEvent {
  const entityType = ((s.type.schema() as { fields: { name: string; type: unknown }[] }).fields[3].type as unknown[])[1] as { fields: { name: string; type: unknown }[] }
  const entity: Record<string, unknown> = {}
  for (const f of entityType.fields) entity[f.name] = valueOf(f.type, rand)
  if (entity[s.r.key] == null) entity[s.r.key] = s.r.keyKind === 'int' ? 7 : 'k7'
  return { op: 'upsert', version: 1_790_000_000_000_000 + Math.floor(rand() * 1e9), key: String(entity[s.r.key]), entity }
}

const wireOf = (s: Setup, e: EntityEvent) => wireEncode(1, s.type.toBuffer(e))

t.test('every stored resource: the transcoded row is byte for byte the generic path\'s', async (t) => {
  const rand = rng(20261129)
  for (const r of catalogue.stored) {
    const s = setup(r)
    const slab = new RowSlab()
    for (let i = 0; i < 40; i++) {
      const wire = wireOf(s, randomEvent(s, rand))
      const row = s.transcode(wire, null, slab)
      if (!row || !row.equals(generic(s, wire))) { t.fail(`${r.name}: event ${i} differs`); break }
    }
  }
  t.pass('compared')
})

t.test('rows of one slab join into one piece; a new slab starts a new piece', async (t) => {
  const s = setup(catalogue.get('dockets'))
  const slab = new RowSlab()
  const rand = rng(3)
  const events = Array.from({ length: 300 }, () => randomEvent(s, rand))
  const rows = events.map((e) => s.transcode(wireOf(s, e), null, slab)!)
  const pieces = coalesce(rows)
  t.ok(pieces.length < rows.length / 10, `${rows.length} rows in ${pieces.length} pieces`)
  t.ok(Buffer.concat(pieces).equals(Buffer.concat(rows)), 'the same bytes in the same order')
  const expected = Buffer.concat(events.map((e) => generic(s, wireOf(s, e))))
  t.ok(Buffer.concat(pieces).equals(expected), 'and they are the generic path\'s rows')
})

t.test('coalesce joins only views that touch, in order', async (t) => {
  const a = Buffer.from('abcdefgh')
  const b = Buffer.from('ABCDEFGH')
  const pieces = coalesce([a.subarray(0, 2), a.subarray(2, 3), a.subarray(3, 5), b.subarray(0, 1), b.subarray(1, 4), a.subarray(6, 8), a.subarray(5, 6), b.subarray(4, 8)])
  t.same(pieces.map((p) => p.toString()), ['abcde', 'ABCD', 'gh', 'f', 'EFGH'], 'runs of adjacent views, a gap or another buffer or going back starts a new one')
  t.equal(pieces[2].buffer, a.buffer, 'views of the same memory, not copies')
  t.same(coalesce([]), [], 'nothing from nothing')
  const one = a.subarray(1, 3)
  t.equal(coalesce([one])[0], one, 'a lone view is handed back as it is')
})

t.test('what the generic path refuses is refused, with a reason', async (t) => {
  const s = setup(catalogue.get('dockets'))
  const slab = new RowSlab()
  const good = wireOf(s, { op: 'upsert', version: 5, key: '12', entity: { ...randomEvent(s, rng(1)).entity, id: 12 } })
  t.ok(s.transcode(good, Buffer.from('12'), slab), 'a valid event with its message key')
  for (let cut = 6; cut < good.length; cut += Math.max(1, Math.floor(good.length / 40))) {
    t.throws(() => s.transcode(good.subarray(0, cut), null, slab), { name: 'UndecodableEvent' }, `truncated at ${cut}`)
  }
  t.throws(() => s.transcode(Buffer.concat([good, Buffer.from([0])]), null, slab), { name: 'UndecodableEvent', message: /trailing/ })
  const otherKey = wireOf(s, { op: 'upsert', version: 5, key: '13', entity: { ...randomEvent(s, rng(1)).entity, id: 12 } })
  t.throws(() => s.transcode(otherKey, null, slab), { name: 'UndecodableEvent', message: /differs/ }, 'event key ≠ entity id')
  t.throws(() => s.transcode(good, Buffer.from('13'), slab), { message: /message key 13 differs/ }, 'message key ≠ event key')
  const zero = wireOf(s, { op: 'upsert', version: 0, key: '12', entity: { ...randomEvent(s, rng(1)).entity, id: 12 } })
  t.throws(() => s.transcode(zero, null, slab), { name: 'UndecodableEvent', message: /positive/ })
  // op upsert, version 5, key "12", then the entity union's null branch.
  t.throws(() => s.transcode(Buffer.concat([good.subarray(0, 5), Buffer.from([0, 10, 4, 0x31, 0x32, 0])]), null, slab), { name: 'UndecodableEvent', message: /without an entity/ })
  t.throws(() => s.transcode(Buffer.concat([good.subarray(0, 5), Buffer.from([4])]), null, slab), { name: 'UndecodableEvent', message: /enum/ }, 'an op past the enum')
  // A long of ten bytes that no double holds exactly.
  t.throws(() => s.transcode(Buffer.concat([good.subarray(0, 5), Buffer.from([0, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01])]), null, slab), { name: 'UndecodableEvent', message: /precision/ })
})

t.test('deletes and texts that are not UTF-8 are handed back to the generic path', async (t) => {
  const s = setup(catalogue.get('dockets'))
  const slab = new RowSlab()
  t.equal(s.transcode(wireOf(s, { op: 'delete', version: 5, key: '12', entity: null }), null, slab), undefined)
  const e = randomEvent(s, rng(9))
  e.entity!.case_name = 'Café'
  const wire = wireOf(s, e)
  const at = wire.indexOf(Buffer.from('Café'))
  wire[at + 3] = 0xff // the é's first byte: no longer UTF-8
  t.equal(s.transcode(wire, null, slab), undefined)
})

t.test('an older or newer writer schema: missing columns take their defaults, unknown fields are skipped', async (t) => {
  const r = catalogue.get('dockets')
  const current = toAvro(catalogue, r) as { fields: { name: string; type: unknown }[] }
  const entity = (current.fields[3].type as [string, { fields: { name: string; type: unknown }[] }])[1]
  const fields = entity.fields.filter((f) => !['case_name', 'date_filed', 'date_created', 'pacer_case_id'].includes(f.name))
  fields.splice(2, 0, { name: 'retired_field', type: 'string' }, { name: 'retired_list', type: { type: 'array', items: 'long' } })
  const older = { ...current, fields: [...current.fields.slice(0, 3), { ...current.fields[3], type: ['null', { ...entity, fields }] }] }
  const s = setup(r, older)
  const rand = rng(11)
  const slab = new RowSlab()
  for (let i = 0; i < 30; i++) {
    const wire = wireOf(s, randomEvent(s, rand))
    t.ok(s.transcode(wire, null, slab)!.equals(generic(s, wire)), `event ${i}`)
  }
})

t.test('a writer schema with types the transcoder does not know gets none', async (t) => {
  const r = catalogue.get('dockets')
  const columns = sinkColumns(catalogue, r)
  const current = toAvro(catalogue, r) as { fields: { name: string; type: unknown }[] }
  const entity = (current.fields[3].type as [string, { fields: { name: string; type: unknown }[] }])[1]
  const withInt = { ...current, fields: [...current.fields.slice(0, 3), { ...current.fields[3], type: ['null', { ...entity, fields: [...entity.fields, { name: 'small', type: 'int' }] }] }] }
  t.equal(compileRowTranscoder(avro.Type.forSchema(withInt as avro.Schema).schema(), columns, r.key), undefined, 'an int field')
  const retyped = { ...current, fields: [...current.fields.slice(0, 3), { ...current.fields[3], type: ['null', { ...entity, fields: entity.fields.map((f) => (f.name === 'case_name' ? { ...f, type: 'long' } : f)) }] }] }
  t.equal(compileRowTranscoder(avro.Type.forSchema(retyped as avro.Schema).schema(), columns, r.key), undefined, 'a text column written as a long')
  t.equal(compileRowTranscoder({ type: 'record', name: 'X', fields: [] }, columns, r.key), undefined, 'not an entity event')
})

t.test('an array written in several blocks (as other Avro writers may) is one RowBinary array', async (t) => {
  const zigzag = (n: number) => { const out: number[] = []; let z = n >= 0 ? n * 2 : -n * 2 - 1; while (z >= 0x80) { out.push((z & 0x7f) | 0x80); z = Math.floor(z / 128) } out.push(z); return out }
  const text = (s: string) => [...zigzag(Buffer.byteLength(s)), ...Buffer.from(s)]
  const schema = {
    type: 'record', name: 'E', fields: [
      { name: 'op', type: { type: 'enum', name: 'Op', symbols: ['upsert', 'delete'] } },
      { name: 'version', type: 'long' }, { name: 'key', type: 'string' },
      { name: 'entity', type: ['null', { type: 'record', name: 'R', fields: [{ name: 'id', type: 'long' }, { name: 'tags', type: { type: 'array', items: 'string' } }] }] },
    ],
  }
  const columns = [{ name: 'id', type: 'Int64' }, { name: 'tags', type: 'Array(String)' }, { name: '_version', type: 'UInt64' }, { name: '_deleted', type: 'UInt8' }]
  const transcode = compileRowTranscoder(schema, columns, 'id')!
  const head = [0, 0, 0, 0, 1, ...zigzag(0), ...zigzag(9), ...text('42'), ...zigzag(1), ...zigzag(42)]
  // Three items: a block of one, a block of two with its byte size (negative count), the end.
  const blocks = [...zigzag(1), ...text('a'), ...zigzag(-2), ...zigzag(text('bc').length + text('d').length), ...text('bc'), ...text('d'), 0]
  const row = transcode(Buffer.from([...head, ...blocks]), null, new RowSlab())!
  const expected = Buffer.concat(rowBinaryInsert('`t`', columns).encode([[42, ['a', 'bc', 'd'], 9, 0]]))
  t.ok(row.equals(expected), 'the items of every block, counted once')
  const single = transcode(Buffer.from([...head, ...zigzag(3), ...text('a'), ...text('bc'), ...text('d'), 0]), null, new RowSlab())!
  t.ok(single.equals(expected), 'and the same row from one block')
})
