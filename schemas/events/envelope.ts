/**
 * The event every entity topic carries: an operation, a version that only grows for a key, the
 * key, and for upserts the whole entity in storage form. A replayed event is harmless because
 * the highest version wins everywhere it lands.
 */
export interface EntityEvent { op: 'upsert' | 'delete'; version: number; key: string; entity: Record<string, unknown> | null }

export class UndecodableEvent extends Error {
  override name = 'UndecodableEvent'
}

/** Strictly increasing microsecond timestamps: a later write from this process always has a higher version. */
export function createVersioner(now: () => number = Date.now): () => number {
  let last = 0
  return () => { last = Math.max(last + 1, now() * 1000); return last }
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
