import { createHash } from 'node:crypto'

/**
 * The id of a citation-network edge (citing opinion, cited opinion): stable, so the network
 * processor and bulk citation maps upsert the same row for the same pair. 53 bits, a JSON-safe integer.
 */
export function edgeId(citing: number, cited: number): number {
  const h = createHash('sha256').update(`${citing}:${cited}`).digest()
  return (h.readUInt32BE(0) & 0x1fffff) * 2 ** 32 + h.readUInt32BE(4)
}
