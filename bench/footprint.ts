/**
 * Bytes per row in every store the service keeps, measured on a data set already loaded, and
 * projected to the reference's corpus (bench/lib/corpus-size.ts):
 *   npx tsx bench/footprint.ts --prefix bench.q28 [--search-database lds_bench_s27]
 *
 * For each table of the deployment (topic prefix `<prefix>.`, ClickHouse database `<prefix>` with
 * dots as underscores, as bench/api.ts names them):
 *  - ClickHouse: compressed bytes of the active parts ÷ their rows (system.parts);
 *  - Kafka: bytes of the entity topic's log segments on disk ÷ the messages they hold (the local
 *    broker's log folder; compacted topics keep one message per key once cleaned, so this is an
 *    upper bound until the cleaner has run);
 *  - the API's read model: each LMDB sub-database's pages (its own statistics) shared among
 *    resources by the bytes of their keys and values, ÷ the resource's rows;
 *  - search postings, from a database the search benchmark filled (bench/search.ts).
 * Then each is multiplied out to the full corpus. Writes .data/bench/footprint.json.
 */
import path from 'node:path'
import { existsSync, readdirSync, statSync, readFileSync, mkdirSync, writeFileSync } from 'node:fs'
import { open } from 'lmdb'
import { toBufferKey } from 'ordered-binary'
import { createClient } from '@clickhouse/client'
import { loadConfig } from '../core/config.js'
import { catalogue } from '../schemas/catalogue/index.js'
import { entityTopic } from '../schemas/events/names.js'
import { readModelPath } from '../api/read-model/consumer.js'
import { storeFileName } from '../api/read-model/store.js'
import { listIndexesOf } from '../api/read-model/list-index.js'
import { parseFlags } from '../test/kit/args.js'
import { table, fmtInt } from './lib/stats.js'
import { ANCHORS, anchorOf, projectedRows } from './lib/corpus-size.js'

const flags = parseFlags('npx tsx bench/footprint.ts', {
  prefix: { type: 'string', default: 'bench.q28', help: "the deployment measured (bench/api.ts's --prefix)" },
  'search-database': { type: 'string', default: 'lds_bench_s27', help: 'a ClickHouse database bench/search.ts filled (its postings are measured)' },
})

const prefix = flags.prefix
const cfg = loadConfig({ ...process.env, LDS_TOPIC_PREFIX: `${prefix}.`, CLICKHOUSE_DATABASE: prefix.replace(/\W/g, '_') })
const ch = createClient({ url: cfg.clickhouseUrl })

interface TableBytes { rows: number; bytes: number }

/** Compressed bytes and rows of each table's active parts in one database. */
async function clickhouseTables(database: string): Promise<Map<string, TableBytes>> {
  const rs = await ch.query({
    query: 'SELECT table, sum(rows) AS rows, sum(data_compressed_bytes) AS bytes FROM system.parts WHERE active AND database = {db:String} GROUP BY table',
    query_params: { db: database }, format: 'JSONEachRow',
  })
  const out = new Map<string, TableBytes>()
  for (const r of await rs.json<{ table: string; rows: string; bytes: string }>()) out.set(r.table, { rows: Number(r.rows), bytes: Number(r.bytes) })
  return out
}

/** The local broker's log folder (infra/kafka-server.ts writes it into server.properties). */
function kafkaLogDir(): string {
  const props = readFileSync(path.join(cfg.dataDir, 'kafka', 'server.properties'), 'utf8')
  return props.match(/^log\.dirs=(.*)$/m)![1].trim()
}

/** Bytes on disk and messages (from the segment files' base offsets to the last offset) of one topic. */
function kafkaTopic(logDir: string, topic: string): TableBytes {
  let bytes = 0, rows = 0
  for (const dir of readdirSync(logDir)) {
    const m = dir.match(/^(.*)-(\d+)$/)
    if (!m || m[1] !== topic) continue
    const folder = path.join(logDir, dir)
    const logs = readdirSync(folder).filter((f) => f.endsWith('.log')).sort()
    for (const f of logs) bytes += statSync(path.join(folder, f)).size
    // Messages: the partition's next offset less its start offset (the oldest segment's base).
    const snapshot = readdirSync(folder).filter((f) => f.endsWith('.snapshot')).sort().pop()
    const next = snapshot ? Number(snapshot.replace('.snapshot', '')) : 0
    const start = logs.length ? Number(logs[0].replace('.log', '')) : 0
    rows += Math.max(0, next - start)
  }
  return { bytes, rows }
}

/** The read model's bytes per resource: each sub-database's pages shared by the bytes of its entries. */
function readModelBytes(): Map<string, number> {
  const file = path.join(readModelPath(cfg), storeFileName(listIndexesOf(catalogue)))
  const out = new Map<string, number>()
  if (!existsSync(file)) return out
  const root = open({ path: file, readOnly: true, compression: false })
  try {
    // The resource an entry belongs to, by the layout of its key (api/read-model/store.ts).
    const resourceOf: Record<string, (key: unknown[]) => unknown> = {
      entities: (k) => k[0], refs: (k) => k[0], lists: (k) => k[0], listCounts: (k) => k[0],
      rendered: (k) => k[0], stale: (k) => k[0], dependsOn: (k) => k[0], refSets: (k) => k[0],
      dependents: (k) => k[1],
    }
    for (const [name, of] of Object.entries(resourceOf)) {
      const db = root.openDB({ name, encoding: 'binary', dupSort: name === 'refs' })
      const stats = db.getStats() as { pageSize: number; treeBranchPageCount: number; treeLeafPageCount: number; overflowPages: number }
      const pages = (stats.treeBranchPageCount + stats.treeLeafPageCount + stats.overflowPages) * stats.pageSize
      const share = new Map<string, number>()
      let all = 0
      for (const { key, value } of db.getRange({})) {
        const k = key as unknown[]
        const n = toBufferKey(k as never).length + (value as Buffer).length
        const r = String(of(k))
        share.set(r, (share.get(r) ?? 0) + n)
        all += n
      }
      for (const [r, n] of share) out.set(r, (out.get(r) ?? 0) + (all ? pages * (n / all) : 0))
    }
  } finally { root.close() }
  return out
}

const gb = (bytes: number) => bytes / 1e9
const fmtGb = (bytes: number | undefined) => (bytes === undefined ? '–' : gb(bytes) < 10 ? gb(bytes).toFixed(2) : fmtInt(gb(bytes)))
const fmtB = (n: number | undefined) => (n === undefined || !Number.isFinite(n) ? '–' : fmtInt(n))

async function main(): Promise<void> {
  const tables = await clickhouseTables(cfg.clickhouseDatabase)
  const measuredRows = new Map([...tables].map(([t, b]) => [t, b.rows]))
  const logDir = kafkaLogDir()
  const readModel = readModelBytes()

  const rows: Record<string, unknown>[] = []
  for (const r of catalogue.stored) {
    const ch = tables.get(r.table)
    if (!ch || !ch.rows) continue
    const k = kafkaTopic(logDir, entityTopic(cfg, r))
    const rm = readModel.get(r.name)
    const full = projectedRows(r.table, ch.rows, measuredRows)
    rows.push({
      resource: r.name, table: r.table, rows: ch.rows, anchor: anchorOf(r.table).name, fullRows: full,
      clickhouseBytesPerRow: ch.bytes / ch.rows,
      kafkaBytesPerMessage: k.rows ? k.bytes / k.rows : undefined, kafkaMessages: k.rows,
      readModelBytesPerRow: rm === undefined ? undefined : rm / ch.rows,
    })
  }
  rows.sort((a, b) => (Number(b.fullRows ?? 0) * Number(b.clickhouseBytesPerRow)) - (Number(a.fullRows ?? 0) * Number(a.clickhouseBytesPerRow)))
  const total = (field: string) => rows.reduce((s, r) => s + (r.fullRows && r[field] !== undefined ? Number(r.fullRows) * Number(r[field]) : 0), 0)

  // Search: postings and documents of the search benchmark's database.
  const search = await clickhouseTables(flags['search-database'])
  const docs = [...search].filter(([t]) => /^search_[a-z]+$/.test(t)).reduce((s, [, b]) => s + b.rows, 0)
  const searchBytes = [...search].filter(([t]) => t.startsWith('search_')).reduce((s, [, b]) => s + b.bytes, 0)
  const searchPerDoc = docs ? searchBytes / docs : undefined

  console.log(`\nbench/footprint — ${prefix}: bytes per row measured, projected to the full corpus (${ANCHORS.map((a) => `${a.name} ${fmtInt(a.count)}`).join(', ')})\n`)
  console.log(table([
    ['resource', 'rows', 'grows with', 'full rows', 'CH B/row', 'Kafka B/msg', 'read model B/row', 'CH GB full', 'Kafka GB full', 'read model GB full'],
    ...rows.map((r) => [String(r.resource), fmtInt(Number(r.rows)), String(r.anchor), fmtInt(Number(r.fullRows)),
      fmtB(Number(r.clickhouseBytesPerRow)), fmtB(r.kafkaBytesPerMessage as number | undefined), fmtB(r.readModelBytesPerRow as number | undefined),
      fmtGb(r.fullRows ? Number(r.fullRows) * Number(r.clickhouseBytesPerRow) : undefined),
      fmtGb(r.fullRows && r.kafkaBytesPerMessage !== undefined ? Number(r.fullRows) * Number(r.kafkaBytesPerMessage) : undefined),
      fmtGb(r.fullRows && r.readModelBytesPerRow !== undefined ? Number(r.fullRows) * Number(r.readModelBytesPerRow) : undefined)]),
    ['all', '', '', '', '', '', '', fmtGb(total('clickhouseBytesPerRow')), fmtGb(total('kafkaBytesPerMessage')), fmtGb(total('readModelBytesPerRow'))],
  ]))
  const searchDocsFull = ANCHORS.find((a) => a.name === 'opinions')!.count
  console.log(`\n  search (${flags['search-database']}): ${fmtInt(docs)} documents, ${fmtB(searchPerDoc)} B of postings and documents per document; ${fmtGb(searchPerDoc && searchPerDoc * searchDocsFull)} GB at ${fmtInt(searchDocsFull)} opinion documents`)
  const readModelAll = [...readModel.values()].reduce((s, n) => s + n, 0)
  console.log(`  read model measured: ${fmtGb(readModelAll)} GB in all; opinions ${((readModel.get('opinions') ?? 0) / (readModelAll || 1) * 100).toFixed(0)} % of it`)

  const out = path.join(cfg.dataDir, 'bench', 'footprint.json')
  mkdirSync(path.dirname(out), { recursive: true })
  writeFileSync(out, JSON.stringify({ at: new Date().toISOString(), prefix, anchors: ANCHORS, rows, search: { database: flags['search-database'], documents: docs, bytesPerDocument: searchPerDoc }, readModelBytes: Object.fromEntries(readModel) }, null, 2))
  console.log(`\nwritten: ${out}`)
  await ch.close()
}

await main()
