/**
 * Which documents each row was last indexed into, for rows whose words go into other entities'
 * documents (documents.ts PARENTS: an opinion into its cluster's, a party into its dockets').
 *
 * A change rebuilds the documents its new row names. One that moves the row (an opinion to
 * another cluster, a party off a docket) or deletes it must also rebuild the documents it was
 * in, and only the previous row names those. Events carry the new row only, and the tables keep
 * a row's old versions only until a merge, so the indexer keeps the parents itself: read for a
 * batch's rows before it builds, written once the batch's documents are written and searchable
 * (a batch that fails and is retried reads the same old parents again).
 */
import type { Db } from '../../core/clickhouse.js'
import { sql, ident } from '../../core/sql.js'
import { SEARCH_PARENTS } from '../../schemas/internal/search.js'
import { PARENTS, type Row } from './documents.js'

/** Per resource, per row key: the ids of the documents it goes into. */
export type ParentsOf = Map<string, Map<number, number[]>>

export interface Change { resource: string; op: 'upsert' | 'delete'; key: string; entity?: Row | null }

/** The parents of a batch's rows after it (a deleted row: none); the last change of a row wins. */
export function parentsAfter(changes: Iterable<Change>): ParentsOf {
  const out: ParentsOf = new Map()
  for (const c of changes) {
    const parent = PARENTS[c.resource]
    const key = Number(c.key)
    if (!parent || !Number.isSafeInteger(key)) continue
    let rows = out.get(c.resource)
    if (!rows) out.set(c.resource, (rows = new Map()))
    rows.set(key, c.op === 'upsert' && c.entity ? parent.of(c.entity) : [])
  }
  return out
}

/** Rows whose parents differ from what was recorded (a row never recorded and now in none: not listed). */
export function changedParents(now: ParentsOf, before: ParentsOf): { resource: string; member: number; parents: number[] }[] {
  const out: { resource: string; member: number; parents: number[] }[] = []
  for (const [resource, rows] of now) {
    const was = before.get(resource)
    for (const [member, parents] of rows) {
      const old = was?.get(member)
      if (old === undefined ? parents.length === 0 : sameSet(old, parents)) continue
      out.push({ resource, member, parents })
    }
  }
  return out
}

const sameSet = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((x) => b.includes(x))

export function createParentLedger(db: Db) {
  const table = sql`${ident(db.database)}.${ident(SEARCH_PARENTS)}`
  return {
    /** What was recorded for these rows (rows never recorded are absent). */
    async recorded(rows: ParentsOf): Promise<ParentsOf> {
      const out: ParentsOf = new Map()
      await Promise.all([...rows].map(async ([resource, keys]) => {
        const found = await db.withKeys<{ member: number; parents: number[] }>([...keys.keys()], 'Int64', (k) => sql`
          SELECT member, parents FROM ${table} FINAL WHERE resource = ${resource} AND member IN ${k}`)
        out.set(resource, new Map(found.map((r) => [Number(r.member), r.parents.map(Number)])))
      }))
      return out
    },
    /** Records the rows' parents now, where they changed. */
    async record(now: ParentsOf, before: ParentsOf, version: number): Promise<void> {
      const rows = changedParents(now, before).map((r) => ({ ...r, _version: version, _deleted: 0 }))
      if (rows.length) await db.insert(SEARCH_PARENTS, rows)
    },
  }
}
