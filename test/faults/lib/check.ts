/**
 * What the tables hold after FINAL, in the suite's terms:
 *   rows        count() FINAL
 *   lost        keys that should be there and are not
 *   duplicated  count() FINAL − uniqExact(key) FINAL, plus keys at a stale version (and keys
 *               that should not exist at all)
 */
import { sql, ident } from '../../../core/sql.js'
import type { Runtime } from '../../../bin/runtime.js'
import { SYNTHETIC_RESOURCE, generationName } from './load.js'

export interface Tally { rows: number; lost: number; duplicated: number; detail: Record<string, number> }

const table = (rt: Runtime, name: string) => sql`${ident(rt.cfg.clickhouseDatabase)}.${ident(name)}`
const n = (v: unknown) => Number(v ?? 0)

/** count() of a table without FINAL: every row written so far, duplicates included (progress). */
export async function rawCount(rt: Runtime, tableName: string): Promise<number> {
  const [r] = await rt.db.query<{ n: number }>(sql`SELECT count() AS n FROM ${table(rt, tableName)}`)
  return n(r?.n)
}

export async function finalCount(rt: Runtime, tableName: string): Promise<number> {
  const [r] = await rt.db.query<{ n: number }>(sql`SELECT count() AS n FROM ${table(rt, tableName)} FINAL`)
  return n(r?.n)
}

/** The synthetic load: keys 1..keys, each at its last generation. */
export async function syntheticTally(rt: Runtime, keys: number, versions: number): Promise<Tally> {
  const t = rt.catalogue.get(SYNTHETIC_RESOURCE).table
  const [r] = await rt.db.query<Record<string, number>>(sql`
    SELECT count() AS rows, uniqExact(id) AS keys, uniqExactIf(id, id >= 1 AND id <= ${keys}) AS wanted,
           countIf(name != ${generationName(versions)}) AS stale, countIf(id < 1 OR id > ${keys}) AS strangers
    FROM ${table(rt, t)} FINAL`)
  const rows = n(r.rows), uniq = n(r.keys), wanted = n(r.wanted), stale = n(r.stale), strangers = n(r.strangers)
  return { rows, lost: keys - wanted, duplicated: rows - uniq + stale + strangers, detail: { keys: uniq, stale, strangers } }
}

/** Every table of a load whose records were published once each: expected rows per resource. */
export async function resourceTally(rt: Runtime, expected: ReadonlyMap<string, number>): Promise<Tally & { byTable: Record<string, { rows: number; keys: number; expected: number }> }> {
  let rows = 0, lost = 0, duplicated = 0
  const byTable: Record<string, { rows: number; keys: number; expected: number }> = {}
  for (const [resource, want] of expected) {
    const r = rt.catalogue.get(resource)
    const [c] = await rt.db.query<Record<string, number>>(sql`
      SELECT count() AS rows, uniqExact(${ident(r.key)}) AS keys FROM ${table(rt, r.table)} FINAL`)
    const got = { rows: n(c.rows), keys: n(c.keys), expected: want }
    byTable[r.table] = got
    rows += got.rows
    lost += Math.max(0, want - got.keys)
    duplicated += got.rows - got.keys + Math.max(0, got.keys - want)
  }
  return { rows, lost, duplicated, detail: {}, byTable }
}

/** Keys of a table whose FINAL row is not the highest version ever written for them (FINAL itself wrong). */
export async function finalNotLatest(rt: Runtime, tableName: string, key: string): Promise<number> {
  const [r] = await rt.db.query<{ bad: number }>(sql`
    SELECT count() AS bad FROM (SELECT ${ident(key)} AS k, max(_version) AS v FROM ${table(rt, tableName)} GROUP BY k) AS latest
    INNER JOIN (SELECT ${ident(key)} AS k, _version FROM ${table(rt, tableName)} FINAL) AS final USING k WHERE latest.v != final._version`)
  return n(r?.bad)
}

export const addTallies = (...ts: Tally[]): Tally => ({
  rows: ts.reduce((a, t) => a + t.rows, 0), lost: ts.reduce((a, t) => a + t.lost, 0), duplicated: ts.reduce((a, t) => a + t.duplicated, 0),
  detail: Object.assign({}, ...ts.map((t) => t.detail)),
})

/**
 * Keeps every row a sink inserts (no background merges on this table), so `redelivered` can count
 * events applied more than once: each event has its own version (the publisher's versions are
 * strictly increasing), so rows beyond the distinct versions are re-applied events.
 */
export async function keepEveryInsert(rt: Runtime, tableName: string): Promise<void> {
  await rt.db.command(sql`SYSTEM STOP MERGES ${table(rt, tableName)}`)
}

/** The active parts of a table (each insert is one while merges are stopped: keepEveryInsert). */
export async function partNames(rt: Runtime, tableName: string): Promise<Set<string>> {
  const rows = await rt.db.query<{ name: string }>(sql`SELECT name FROM system.parts WHERE database = ${rt.cfg.clickhouseDatabase} AND table = ${tableName} AND active`)
  return new Set(rows.map((r) => r.name))
}

/**
 * Where the copies of the events applied twice were written, against the parts that existed at a
 * moment (`before`): both before it, one before and one after, both after. Says which process
 * wrote an event twice when the moment is a stop and restart of the writer.
 */
export async function duplicatesAround(rt: Runtime, tableName: string, before: ReadonlySet<string>): Promise<{ bothBefore: number; acrossIt: number; bothAfter: number; examples: string[] }> {
  const rows = await rt.db.query<{ v: string; parts: string[] }>(sql`SELECT toString(_version) AS v, groupArray(_part) AS parts FROM ${table(rt, tableName)} GROUP BY _version HAVING count() > 1 LIMIT 5000`)
  const out = { bothBefore: 0, acrossIt: 0, bothAfter: 0, examples: [] as string[] }
  for (const r of rows) {
    const old = r.parts.filter((p) => before.has(p)).length
    if (old === r.parts.length) out.bothBefore++
    else if (old === 0) out.bothAfter++
    else out.acrossIt++
    if (out.examples.length < 5) out.examples.push(`${r.v}: ${r.parts.join(', ')}`)
  }
  return out
}

/** Rows inserted more than once for the same event (at-least-once redelivery), before any merge. */
export async function redelivered(rt: Runtime, tableName: string): Promise<number> {
  const [r] = await rt.db.query<{ n: number }>(sql`SELECT count() - uniqExact(_version) AS n FROM ${table(rt, tableName)}`)
  return n(r?.n)
}
