/**
 * Issue 22: the table sink's in-place path hands the transcoder an event's body and its message
 * key where they lie in a decompressed record batch (`RowTranscoder#into`), and keeps the rows as
 * runs of the slab. The rows must be the bytes `transcode` makes of the same events alone, a body
 * is bounded by its end whatever bytes follow it, and the message key is compared where it lies.
 */
import t from 'tap'
import avro from 'avsc'
import { compileRowTranscoder, RowSlab } from '../../../core/avro-row-binary.js'
import { catalogue } from '../../../schemas/catalogue/index.js'
import { toAvro } from '../../../schemas/avro.js'
import { wireEncode, type EntityEvent } from '../../../schemas/events/index.js'
import { sinkColumns } from '../../../streams/table-sink.js'

const dockets = catalogue.get('dockets')
const type = avro.Type.forSchema(toAvro(catalogue, dockets) as avro.Schema)
const transcode = compileRowTranscoder(type.schema(), sinkColumns(catalogue, dockets), dockets.key)!
const entityFields = ((type.schema() as { fields: { name: string; type: unknown }[] }).fields[3].type as { fields: { name: string; type: unknown }[] }[])[1].fields
/** A docket with every field null or empty but its id and name. */
const docket = (id: number): Record<string, unknown> => {
  const e: Record<string, unknown> = {}
  for (const f of entityFields) e[f.name] = Array.isArray(f.type) ? null : typeof f.type === 'object' ? [] : f.type === 'string' ? '' : f.type === 'boolean' ? false : 0
  return { ...e, id, case_name: `Case ${id} v. ${'é'.repeat(Math.abs(id) % 4)}${'x'.repeat(Math.abs(id) % 50)}` }
}
const wireOf = (e: EntityEvent) => wireEncode(1, type.toBuffer(e))

t.test('into: bodies and keys read where they lie give the rows transcode gives, bounded by their ends', async (t) => {
  t.ok(transcode, 'dockets have a transcoder')
  const events: EntityEvent[] = Array.from({ length: 200 }, (_, i) => ({ op: 'upsert', version: 1_790_000_000_000_000 + i, key: String(i + 1), entity: docket(i + 1) }))
  // As in a record batch: some bytes, the key, the body, more bytes; each body's bounds passed along.
  const parts: Buffer[] = []
  const at: { key: [number, number]; body: [number, number] }[] = []
  let pos = 0
  for (const e of events) {
    const key = Buffer.from(e.key)
    const body = wireOf(e)
    at.push({ key: [pos + 3, pos + 3 + key.length], body: [pos + 3 + key.length, pos + 3 + key.length + body.length] })
    parts.push(Buffer.from([0xff, 0x00, 0x7f]), key, body)
    pos += 3 + key.length + body.length
  }
  parts.push(Buffer.from([0, 0, 0]))
  const batch = Buffer.concat(parts)
  const slab = new RowSlab()
  const alone = new RowSlab()
  let same = 0
  for (const [i, e] of events.entries()) {
    const { key, body } = at[i]
    if (!transcode.into(batch, body[0], body[1], batch, key[0], key[1], slab)) continue
    if (slab.current.subarray(slab.rowStart, slab.offset).equals(transcode(wireOf(e), Buffer.from(e.key), alone)!)) same++
  }
  t.equal(same, events.length, 'every row the same bytes')
  const { key, body } = at[5]
  t.throws(() => transcode.into(batch, body[0], body[1] - 2, batch, key[0], key[1], slab), { name: 'UndecodableEvent' }, 'a body cut short is truncated, whatever follows it')
  t.throws(() => transcode.into(batch, body[0], body[1], batch, key[0], key[1] - 1, slab), { message: /message key .* differs/ }, 'the message key read where it lies')
  t.equal(transcode.into(batch, body[0], body[1], null, -1, -1, slab), true, 'no message key: not compared')
  const del = wireOf({ op: 'delete', version: 5, key: '12', entity: null })
  t.equal(transcode.into(Buffer.concat([Buffer.from([1, 2]), del]), 2, 2 + del.length, null, -1, -1, slab), false, 'a delete is handed back')
})

t.test('an integer key is compared with the event key as its decimal text, digit by digit', async (t) => {
  const slab = new RowSlab()
  const body = (key: string, id: number) => wireOf({ op: 'upsert', version: 3, key, entity: docket(id) })
  for (const id of [0, 7, 10, 99, 100, 1234567, -1, -10, -905, 2 ** 52 + 3, -(2 ** 52) + 3]) {
    t.ok(transcode(body(String(id), id), null, slab), `${id} spells ${id}`)
  }
  for (const [key, id] of [['07', 7], ['7', 70], ['70', 7], ['-0', 0], ['', 0], ['-', 0], ['1', -1], ['-1', 1], ['--1', -1], ['8', 7], ['1e3', 1000], [' 7', 7]] as const) {
    t.throws(() => transcode(body(key, id), null, slab), { name: 'UndecodableEvent', message: /differs/ }, `${JSON.stringify(key)} is not ${id}`)
  }
})
