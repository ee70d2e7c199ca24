/**
 * The registry wire format: magic byte 0, the 4-byte schema id, then the Avro body. Encoding
 * needs the id the registry gave the schema; decoding fetches the writer's schema for an id once
 * and caches it (concurrent misses share one request).
 */
import type { Registry } from '../../core/registry.js'
import { UndecodableEvent } from './envelope.js'

export function wireEncode(schemaId: number, body: Buffer): Buffer {
  const header = Buffer.alloc(5)
  header.writeUInt8(0, 0)
  header.writeUInt32BE(schemaId, 1)
  return Buffer.concat([header, body])
}

type Decoder = { fromBuffer(b: Buffer): unknown }

export function createDecoder(registry: Registry) {
  const cache = new Map<number, Promise<Decoder>>()
  return async function decode(value: Buffer | null): Promise<unknown> {
    if (!value || value.length < 6) throw new UndecodableEvent('empty or truncated message (no registry header)')
    if (value.readUInt8(0) !== 0) throw new UndecodableEvent(`unknown magic byte ${value.readUInt8(0)}: not registry wire format`)
    const id = value.readUInt32BE(1)
    let type = cache.get(id)
    if (!type) {
      type = registry.client.getSchema(id) as unknown as Promise<Decoder>
      cache.set(id, type)
      type.catch(() => cache.delete(id))
    }
    let decoder: Decoder
    try { decoder = await type } catch (err) { throw new UndecodableEvent(`schema id ${id} unknown to the registry: ${(err as Error).message}`) }
    try { return decoder.fromBuffer(value.subarray(5)) } catch (err) { throw new UndecodableEvent(`Avro body does not match schema ${id}: ${(err as Error).message}`) }
  }
}
