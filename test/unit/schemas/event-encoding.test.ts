import t from 'tap'
import avro from 'avsc'
import { catalogue } from '../../../schemas/catalogue/index.js'
import { columnSpecs } from '../../../schemas/columns.js'
import { toAvro } from '../../../schemas/avro.js'
import { InvalidValue } from '../../../schemas/kinds.js'
import { createEntityCodec, compiledEntityBuilder, InvalidRecord } from '../../../schemas/events/entity-codec.js'
import { wireEncode, createWireWriter } from '../../../schemas/events/wire.js'

/** The loop toEntity replaced: every column in order, the first failure thrown. */
function reference(specs: ReturnType<typeof columnSpecs>, record: Record<string, unknown>) {
  const out: Record<string, unknown> = {}
  for (const c of specs) {
    let v = record[c.column] ?? (c.column !== c.field ? record[c.field] : undefined)
    if (v === undefined || v === null) {
      if (c.nullable) v = null
      else if (c.required) throw new InvalidRecord(`${c.column} is required`)
      else v = c.spec.empty
    } else {
      try { v = c.spec.coerce(v) } catch (err) {
        if (err instanceof InvalidValue) throw new InvalidRecord(`${c.column} ${err.message}`)
        throw err
      }
    }
    out[c.column] = v
  }
  return out
}

/** A record with a plausible value for every column (by kind), some left out, some given by field name. */
function sample(specs: ReturnType<typeof columnSpecs>, seed: number): Record<string, unknown> {
  const r: Record<string, unknown> = {}
  specs.forEach((c, i) => {
    if ((seed + i) % 5 === 0 && !c.required) return
    const name = (seed + i) % 3 === 0 ? c.field : c.column
    const kind = c.spec.ch === 'Int64' ? 'int' : c.spec.ch === 'Float64' ? 'float' : c.spec.ch === 'Bool' ? 'bool' : c.kind
    const v = ({ int: seed + i, float: (seed + i) / 4, string: `s${seed}-${i}`, bool: (seed + i) % 2 === 0, date: '2024-02-29', datetime: '2024-01-01T00:00:00+00:00', time: '10:30', json: { a: seed } } as Record<string, unknown>)[kind]
    // Every seventh record gets a wrong value somewhere, so refusals are compared too.
    r[name] = seed % 7 === 6 && i === 2 ? { wrong: true } : v ?? (c.array ? (c.spec.avro && JSON.stringify(c.spec.avro).includes('long') ? [seed] : [String(seed)]) : `x${seed}`)
  })
  return r
}

t.test('compiled toEntity gives what the column loop gives, for every stored resource', async (t) => {
  let compared = 0
  for (const r of catalogue.stored) {
    const specs = columnSpecs(catalogue, r)
    const codec = createEntityCodec(catalogue, r)
    for (let seed = 0; seed < 12; seed++) {
      const record = sample(specs, seed)
      let want: unknown, wantErr: string | undefined
      try { want = reference(specs, record) } catch (err) { wantErr = (err as Error).message }
      let got: unknown, gotErr: string | undefined
      try { got = codec.toEntity(record) } catch (err) { gotErr = (err as Error).message }
      if (wantErr !== undefined || gotErr !== undefined) t.equal(gotErr, wantErr, `${r.name} seed ${seed}: same error`)
      else {
        t.strictSame(got, want, `${r.name} seed ${seed}`)
        t.strictSame(Object.keys(got as object), specs.map((c) => c.column), `${r.name}: columns in order`)
      }
      compared++
    }
  }
  t.ok(compared > 100)
})

t.test('compiled toEntity refuses what the loop refuses, with the same reason', async (t) => {
  const r = catalogue.get('opinions')
  const codec = createEntityCodec(catalogue, r)
  const specs = columnSpecs(catalogue, r)
  t.throws(() => codec.toEntity({}), { name: 'InvalidRecord', message: `${r.key} is required` })
  const int = specs.find((c) => c.kind === 'int' && c.column !== r.key)!
  t.throws(() => codec.toEntity({ [r.key]: 1, [int.column]: 'twelve' }), { name: 'InvalidRecord' })
  let loopErr = ''
  try { reference(specs, { [r.key]: 1, [int.column]: 'twelve' }) } catch (err) { loopErr = (err as Error).message }
  t.throws(() => codec.toEntity({ [r.key]: 1, [int.column]: 'twelve' }), { message: loopErr })
})

t.test('a column name that is not a plain identifier falls back to the loop', async (t) => {
  const specs = columnSpecs(catalogue, catalogue.get('opinions')).map((c, i) => (i === 1 ? { ...c, column: 'odd-name' } : c))
  const build = compiledEntityBuilder(specs)
  const out = build({ id: 1, 'odd-name': 7 })
  t.ok('odd-name' in out)
})

t.test('the wire writer writes what wireEncode writes, across slab boundaries', async (t) => {
  const r = catalogue.get('opinions')
  const type = avro.Type.forSchema(toAvro(catalogue, r) as avro.Schema)
  const codec = createEntityCodec(catalogue, r)
  const specs = columnSpecs(catalogue, r)
  // A tiny slab: most messages start a new one, some do not fit the first try.
  for (const slab of [64, 700, 4096, 1 << 20]) {
    const wire = createWireWriter(slab)
    const seen: Buffer[] = []
    const want: Buffer[] = []
    for (let i = 1; i <= 200; i++) {
      const entity = codec.toEntity({ ...sample(specs, i % 7 === 6 ? i + 1 : i), [r.key]: i, plain_text: 'x'.repeat((i * 37) % 3000) })
      const ev = { op: 'upsert', version: i, key: String(i), entity }
      seen.push(wire.value(42, type, ev), wire.key(`k-${i}-é`))
      want.push(wireEncode(42, type.toBuffer(ev)), Buffer.from(`k-${i}-é`))
    }
    const del = { op: 'delete', version: 9, key: '9', entity: null }
    seen.push(wire.value(42, type, del)); want.push(wireEncode(42, type.toBuffer(del)))
    // Compared after all were written: an earlier message is never overwritten by a later one.
    t.ok(seen.every((b, i) => b.equals(want[i])), `slab ${slab}: every message as wireEncode writes it`)
  }
})

t.test('the wire writer throws on an invalid value and stays usable', async (t) => {
  const r = catalogue.get('opinions')
  const type = avro.Type.forSchema(toAvro(catalogue, r) as avro.Schema)
  const wire = createWireWriter(1024)
  t.throws(() => wire.value(1, type, { op: 'upsert', version: 1, key: '1', entity: { id: 'not a number' } }), /invalid/i)
  const ev = { op: 'delete', version: 2, key: '2', entity: null }
  t.ok(wire.value(1, type, ev).equals(wireEncode(1, type.toBuffer(ev))))
})
