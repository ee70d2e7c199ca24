/**
 * Resolving (volume, reporter, page) citations to clusters through parallel citations. A written
 * reporter can stand for several canonical reporters (its candidates); every candidate is tried.
 * Where the parallel citations live is the caller's business: it passes a loader that returns the
 * rows whose key (`citeKey`) is in a given set.
 */
export interface CiteKey { volume: number; reporters: readonly string[]; page: string }
export interface CitationRow { volume: number; reporter: string; page: string; cluster_id: number }
export type CitationRowLoader = (keys: readonly string[]) => Promise<CitationRow[]>

export const citeKey = (volume: number | string, reporter: string, page: string) => `${volume}|${reporter}|${page}`

/** Every key a set of citations can match: one per candidate reporter. */
export const candidateKeys = (cites: readonly CiteKey[]) => [...new Set(cites.flatMap((c) => c.reporters.map((r) => citeKey(c.volume, r, c.page))))]

/** key(volume|reporter|page) → cluster ids, ascending, for every candidate reporter of every cite. */
export async function resolveCitations(load: CitationRowLoader, cites: readonly CiteKey[]): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>()
  const keys = candidateKeys(cites)
  if (!keys.length) return out
  for (const r of await load(keys)) {
    const k = citeKey(r.volume, r.reporter, r.page)
    const list = out.get(k) ?? []
    if (!list.includes(Number(r.cluster_id))) list.push(Number(r.cluster_id))
    out.set(k, list)
  }
  for (const list of out.values()) list.sort((a, b) => a - b)
  return out
}

/** Cluster ids a citation matches, across all its candidate reporters, without duplicates. */
export function clustersFor(resolved: Map<string, number[]>, c: CiteKey): number[] {
  const ids = new Set<number>()
  for (const r of c.reporters) for (const id of resolved.get(citeKey(c.volume, r, c.page)) ?? []) ids.add(id)
  return [...ids].sort((a, b) => a - b)
}
