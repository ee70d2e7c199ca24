/**
 * One seeded stack for tests that read every resource: the real Kafka, registry, table sink,
 * ClickHouse and API (with its read model), a test user, and two records per stored resource
 * made from the catalogue alone (the approach of test/integration/openapi-responses.test.ts):
 * a full one (key 1, every column a value that fits its kind, choices and limits) and a sparse one
 * (key 2, only its key and required relations). Rows with an owner belong to the test user;
 * rows with a published flag are published. Nothing here names a resource.
 */
import type { Test } from 'tap'
import type { FastifyInstance } from 'fastify'
import { testStack, waitFor, testUser, countFinal } from '../../helpers/stack.js'
import { startProcessors, type ProcessorRole, type Runtime } from '../../../bin/runtime.js'
import { openPublisher } from '../../../core/events/publisher.js'
import { buildApp } from '../../../api/app.js'
import { sql, ident } from '../../../core/sql.js'
import type { Db } from '../../../core/clickhouse.js'
import { columnSpecs, type ColumnSpec } from '../../../schemas/columns.js'
import { columnOf, type ResourceDef } from '../../../schemas/define.js'
import type { Catalogue } from '../../../schemas/catalogue/index.js'

export type Obj = Record<string, any>
export const HOST = 'x.test'
export const keyOf = (r: ResourceDef, n: number): string | number => (r.keyKind === 'string' ? `k${n}` : n)

/** Rates high enough that no test request is throttled. */
export const UNTHROTTLED = {
  LDS_RATE_USER: '100000000/hour', LDS_RATE_ANON_V4: '100000000/hour', LDS_RATE_ANON_V3: '100000000/day',
  LDS_RATE_TAGS: '100000000/hour', LDS_RATE_FETCH: '100000000/min',
}

/** A value for one column, from its kind, choices and limits alone. */
export function valueFor(cat: Catalogue, r: ResourceDef, c: ColumnSpec): unknown {
  const d = r.fields[c.field]
  // Where only the filter lists choices (clusters.source), a value it accepts.
  const first = (d.choices ?? r.filters[c.field]?.choices)?.[0]?.value
  switch (c.kind) {
    case 'fk': return keyOf(cat.get(d.target!), 1)
    case 'm2m': return [keyOf(cat.get(d.target!), 1)]
    case 'int': return first ?? Math.min(Math.max(1, d.minValue ?? 1), d.maxValue ?? 1)
    case 'float': return first ?? 1.5
    case 'bool': return true
    case 'date': return '2020-01-02'
    case 'datetime': return '2020-01-02T03:04:05+00:00'
    case 'time': return '10:30:00'
    case 'json': return { a: 1 }
    case 'strings': return [first ?? 'a']
    default: return first ?? 'ab'.slice(0, d.maxLength ?? 2)
  }
}

/** The full and the sparse record of a resource, in storage form (column names). */
export function recordsFor(cat: Catalogue, r: ResourceDef, owner: unknown): Obj[] {
  const full: Obj = {}
  const sparse: Obj = {}
  for (const c of columnSpecs(cat, r)) {
    full[c.column] = valueFor(cat, r, c)
    if (c.required) sparse[c.column] = full[c.column]
  }
  for (const rec of [full, sparse]) {
    if (r.owner) rec[r.owner] = owner
    if (r.publishedFlag) rec[r.publishedFlag] = true
  }
  full[r.key] = keyOf(r, 1)
  sparse[r.key] = keyOf(r, 2)
  return [full, sparse]
}

export interface Seeded {
  rt: Runtime
  cat: Catalogue
  app: FastifyInstance
  /** Headers of the test user (Token auth) on HOST. */
  headers: Record<string, string>
  userId: number
  /** The full record (key 1) of each resource, by resource name, in storage form. */
  full: Map<string, Obj>
  /** Milliseconds the setup took. */
  setupMs: number
}

export interface SeedOptions {
  /** The Db the app is built with (e.g. one that records every statement); default the runtime's. */
  wrapDb?: (db: Db) => Db
  /** Extra config overrides. */
  env?: Record<string, string>
  /**
   * Processors to run: by default those the read API depends on (tables, citation counts); the
   * others (archive fetch, prayers, alerts...) would change the seeded rows while they are read.
   */
  roles?: readonly ProcessorRole[]
}

export async function seededStack(t: Test, opts: SeedOptions = {}): Promise<Seeded> {
  const started = Date.now()
  const rt = await testStack(t, { ...UNTHROTTLED, ...opts.env })
  const cat = rt.catalogue
  const streams = await startProcessors(rt, opts.roles ?? ['table-sink', 'citation-network'])
  t.teardown(() => Promise.all(streams.map((s) => s.stop())))
  const pub = await openPublisher(rt)
  t.teardown(() => pub.stop())
  const app = await buildApp({ ...rt, db: opts.wrapDb ? opts.wrapDb(rt.db) : rt.db })
  t.teardown(() => app.close())
  const token = await testUser(rt, 'tester', { app })
  const headers = { authorization: `Token ${token}`, host: HOST }

  // Rows owned by someone belong to the test user: the only row of the table owners point at.
  const ownerTargets = new Set(cat.resources.filter((r) => r.owner).map((r) => {
    const [name, d] = Object.entries(r.fields).find(([n, d]) => columnOf(n, d) === r.owner)!
    return d.target ?? name
  }).filter((n) => cat.has(n)))
  let userId = 0
  for (const name of ownerTargets) {
    const target = cat.get(name)
    const rows = await rt.db.query<Obj>(sql`SELECT ${ident(target.key)} AS k FROM ${ident(rt.cfg.clickhouseDatabase)}.${ident(target.table)} FINAL`)
    if (rows.length !== 1) throw new Error(`expected one ${name} row (the test user), found ${rows.length}`)
    userId = Number(rows[0].k)
  }

  // One writer per table (resources may share one): the resource with the most columns.
  const writers = new Map<string, ResourceDef>()
  for (const r of cat.resources) {
    if (ownerTargets.has(r.name)) continue
    const cur = writers.get(r.table)
    if (!cur || cat.columns(r).length > cat.columns(cur).length) writers.set(r.table, r)
  }
  const full = new Map<string, Obj>()
  for (const r of writers.values()) {
    const [f, s] = recordsFor(cat, r, userId)
    await pub.upsert(r.name, f)
    await pub.upsert(r.name, s)
  }
  await pub.flush()
  for (const r of writers.values()) await waitFor(async () => (await countFinal(rt, r.table)) >= 2, `rows of ${r.name}`, 60_000)
  // Views read their owner's table: the full record of a view is its owner's, in its columns.
  for (const r of cat.resources) {
    const w = writers.get(r.table)
    if (w) full.set(r.name, recordsFor(cat, w, userId)[0])
  }
  return { rt, cat, app, headers, userId, full, setupMs: Date.now() - started }
}

/** Runs `fn` over `items` with at most `limit` at a time, results in order. */
export async function inBatches<T, R>(items: readonly T[], limit: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const i = next++
      out[i] = await fn(items[i], i)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return out
}
