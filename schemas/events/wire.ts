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

/** An Avro type as far as the writer needs it (avsc's Type). */
export interface AvroEncoder { encode(value: unknown, buf: Buffer, pos: number): number }

/** Bytes a wire writer allocates at a time. */
const SLAB_BYTES = 1024 * 1024

/**
 * Encodes many messages (wire-format values and their keys) into shared slabs: each message is a
 * view of a slab, written once and never changed, with no buffer of its own and no copy of the
 * Avro body (wireEncode costs two allocations and a copy per message). A slab is garbage once
 * every message in it is.
 */
export function createWireWriter(slabBytes = SLAB_BYTES) {
  let slab = Buffer.allocUnsafe(slabBytes)
  let pos = 0
  const fresh = (need: number) => { slab = Buffer.allocUnsafe(Math.max(slabBytes, 2 * need)); pos = 0 }
  return {
    /** The wire format of `value` (magic byte, schema id, Avro body); throws as avsc does on an invalid value. */
    value(schemaId: number, type: AvroEncoder, value: unknown): Buffer {
      for (;;) {
        if (slab.length - pos < 64) fresh(64)
        const end = type.encode(value, slab, pos + 5)
        if (end >= 0) {
          slab[pos] = 0
          slab.writeUInt32BE(schemaId, pos + 1)
          const out = slab.subarray(pos, end)
          pos = end
          return out
        }
        // avsc answers with the bytes missing (negative) when the rest of the slab is too small.
        fresh(slab.length - pos - end + 5)
      }
    },
    /** A message key (UTF-8). */
    key(key: string): Buffer {
      const n = Buffer.byteLength(key)
      if (slab.length - pos < n) fresh(n)
      slab.write(key, pos, 'utf8')
      const out = slab.subarray(pos, pos + n)
      pos += n
      return out
    },
  }
}
export type WireWriter = ReturnType<typeof createWireWriter>

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
