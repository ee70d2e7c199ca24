/**
 * Decodes registry wire-format Avro (magic byte 0, 4-byte schema id, body) with the avsc type
 * of that schema id, fetched from the registry once and cached.
 */
import type { SchemaRegistry } from '../core/registry.js'

export class UndecodableEvent extends Error {
  override name = 'UndecodableEvent'
}

export interface EntityEvent { op: 'upsert' | 'delete'; version: number; key: string; entity: Record<string, unknown> | null }

type Decoder = { fromBuffer(b: Buffer): unknown }

export function createDecoder(registry: SchemaRegistry) {
  const cache = new Map<number, Promise<Decoder>>()
  return async function decode(value: Buffer | null): Promise<unknown> {
    if (!value || value.length < 6) throw new UndecodableEvent('empty or truncated message (no registry header)')
    if (value.readUInt8(0) !== 0) throw new UndecodableEvent(`unknown magic byte ${value.readUInt8(0)}: not registry wire format`)
    const id = value.readUInt32BE(1)
    let type = cache.get(id)
    if (!type) {
      type = registry.getSchema(id) as unknown as Promise<Decoder>
      cache.set(id, type)
      type.catch(() => cache.delete(id))
    }
    let decoder: Decoder
    try { decoder = await type } catch (err) { throw new UndecodableEvent(`schema id ${id} unknown to the registry: ${(err as Error).message}`) }
    try { return decoder.fromBuffer(value.subarray(5)) } catch (err) { throw new UndecodableEvent(`Avro body does not match schema ${id}: ${(err as Error).message}`) }
  }
}

/** Checks what Avro cannot: the event's key matches its entity, and deletes carry no entity. */
export function validateEntityEvent(e: unknown, keyField = 'id'): EntityEvent {
  const ev = e as EntityEvent
  if (!ev || (ev.op !== 'upsert' && ev.op !== 'delete')) throw new UndecodableEvent('event has no valid op')
  if (ev.op === 'upsert') {
    if (!ev.entity) throw new UndecodableEvent('upsert without an entity')
    if (String(ev.entity[keyField]) !== ev.key) throw new UndecodableEvent(`event key ${ev.key} differs from entity ${keyField} ${String(ev.entity[keyField])}`)
  }
  if (typeof ev.version !== 'number' || ev.version <= 0) throw new UndecodableEvent('event version must be positive')
  return ev
}
