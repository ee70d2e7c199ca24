/**
 * Opaque cursors: base64 of a query string with o (offset among rows sharing the boundary
 * value), r (1 when paging backwards) and p (the boundary value of the ordering field).
 * A cursor whose position does not fit the ordering's type is refused as invalid.
 */
import { LdsError } from '../../core/errors.js'
import { isFilterDatetime } from '../../schemas/values.js'

export interface Cursor { offset: number; reverse: boolean; position: string | null }

export function encodeCursor(c: Cursor): string {
  const q = new URLSearchParams()
  if (c.offset) q.set('o', String(c.offset))
  if (c.reverse) q.set('r', '1')
  if (c.position !== null) q.set('p', c.position)
  return Buffer.from(q.toString(), 'utf8').toString('base64')
}

const invalid = () => new LdsError('LDS_ERR_INVALID_CURSOR')

export function decodeCursor(text: string, kind: 'int' | 'datetime'): Cursor {
  let q: URLSearchParams
  try {
    const decoded = Buffer.from(text, 'base64').toString('utf8')
    if (!decoded || /[^\x20-\x7e]/.test(decoded)) throw invalid()
    q = new URLSearchParams(decoded)
  } catch { throw invalid() }
  const offset = Number(q.get('o') ?? '0')
  if (!Number.isSafeInteger(offset) || offset < 0 || offset > 10_000) throw invalid()
  const position = q.get('p')
  if (position !== null) {
    // The position is bound as a number (Int64) or parsed by ClickHouse: one it cannot take
    // (beyond 2^53, an impossible date that Date.parse would roll over) is no cursor of ours.
    if (kind === 'int' && (!/^-?\d+$/.test(position) || !Number.isSafeInteger(Number(position)))) throw invalid()
    if (kind === 'datetime' && !isFilterDatetime(position)) throw invalid()
  }
  return { offset, reverse: q.get('r') === '1', position }
}
