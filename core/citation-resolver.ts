/**
 * Resolves (volume, reporter, page) citations to clusters through the parallel-citations
 * table, in one query for a whole set. A written reporter can stand for several canonical
 * reporters (its candidates); every candidate is tried.
 */
import { sql, ident } from './sql.js'
import type { Db } from './clickhouse.js'

export interface CiteKey { volume: number; reporters: readonly string[]; page: string }

export const citeKey = (volume: number | string, reporter: string, page: string) => `${volume}|${reporter}|${page}`

/** key(volume|reporter|page) → cluster ids, ascending, for every candidate reporter of every cite. */
export async function resolveCitations(db: Db, cites: readonly CiteKey[], table = 'citations'): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>()
  const volumes = [...new Set(cites.map((c) => c.volume))]
  const reporters = [...new Set(cites.flatMap((c) => c.reporters))]
  const pages = [...new Set(cites.map((c) => c.page))]
  if (!volumes.length || !reporters.length) return out
  // The three IN lists over-select a little; exact triples are picked out below.
  const rows = await db.query<{ volume: number; reporter: string; page: string; cluster_id: number }>(sql`
    SELECT volume, reporter, page, cluster_id FROM ${ident(db.database)}.${ident(table)} FINAL
    WHERE reporter IN ${reporters} AND volume IN ${volumes} AND page IN ${pages}
    ORDER BY cluster_id`)
  for (const r of rows) {
    const k = citeKey(r.volume, r.reporter, r.page)
    const list = out.get(k) ?? []
    if (!list.includes(Number(r.cluster_id))) list.push(Number(r.cluster_id))
    out.set(k, list)
  }
  return out
}

/** Cluster ids a citation matches, across all its candidate reporters, without duplicates. */
export function clustersFor(resolved: Map<string, number[]>, c: CiteKey): number[] {
  const ids = new Set<number>()
  for (const r of c.reporters) for (const id of resolved.get(citeKey(c.volume, r, c.page)) ?? []) ids.add(id)
  return [...ids].sort((a, b) => a - b)
}
