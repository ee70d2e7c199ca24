/**
 * The change feed's cursor: for each resource, the next offset to read in each partition of its
 * topic. Opaque to clients (base64url of a small JSON object); a partition it does not name is read
 * from its beginning, so `after=0` (the empty cursor) starts at the beginning of what the topics hold.
 */
export type Cursor = Record<string, Record<string, string>>

export class BadCursor extends Error {}

const OFFSET = /^\d{1,19}$/

export function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify(c)).toString('base64url')
}

export function decodeCursor(text: string): Cursor {
  if (text === '0' || text === '') return {}
  let parsed: unknown
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'))
  } catch { throw new BadCursor('not a cursor this feed gave') }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new BadCursor('not a cursor this feed gave')
  const out: Cursor = {}
  for (const [resource, partitions] of Object.entries(parsed as Record<string, unknown>)) {
    if (!partitions || typeof partitions !== 'object' || Array.isArray(partitions)) throw new BadCursor('not a cursor this feed gave')
    out[resource] = {}
    for (const [p, offset] of Object.entries(partitions as Record<string, unknown>)) {
      if (!/^\d{1,5}$/.test(p) || typeof offset !== 'string' || !OFFSET.test(offset)) throw new BadCursor('not a cursor this feed gave')
      out[resource][p] = offset
    }
  }
  return out
}

/** The cursor after `c` once `taken` (resource → partition → last offset delivered) were delivered. */
export function advance(c: Cursor, taken: Record<string, Record<string, string>>): Cursor {
  const out: Cursor = structuredClone(c)
  for (const [resource, partitions] of Object.entries(taken)) {
    out[resource] ??= {}
    for (const [p, last] of Object.entries(partitions)) out[resource][p] = (BigInt(last) + 1n).toString()
  }
  return out
}
