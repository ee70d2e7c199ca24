/**
 * `lds read-model stats`: what the API's read model (api/read-model/store.ts) holds, by resource.
 * Walks the LMDB file read-only (an API may be running on it): per resource, the rows of `entities`
 * (live and deleted), the bytes of their keys and values as stored (values LZ4-compressed over
 * 1 KB), and the UTF-8 bytes of the columns marked `large` that the rows still hold (a store made
 * before they were left out); per resource the rendered details; the other sub-databases as
 * totals (entries, key and value bytes, pages). A projection multiplies each resource's bytes per
 * row by a row count the operator gives (`--project opinions=10000000,dockets=30000000`);
 * resources not named scale with the first one named. It says what the store would take with the
 * same shape of rows, nothing about rows of another shape.
 */
import { existsSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { open, type Database } from 'lmdb'
import type { Catalogue } from '../schemas/catalogue/index.js'
import { largeColumnsOf } from '../api/read-model/refs.js'

export interface ResourceStats {
  resource: string
  rows: number
  deleted: number
  keyBytes: number
  valueBytes: number
  /** UTF-8 bytes of large columns (uncompressed) the stored rows hold. */
  largeBytes: number
  renderedRows: number
  renderedBytes: number
  listEntries: number
  listBytes: number
}

export interface DbStats { name: string; entries: number; keyBytes: number; valueBytes: number; pageBytes: number }

export interface ReadModelStats {
  file: string
  fileBytes: number
  format: string | undefined
  resources: ResourceStats[]
  databases: DbStats[]
}

const SUB_DATABASES = ['entities', 'refs', 'lists', 'listCounts', 'offsets', 'epochs', 'rendered', 'stale', 'dependsOn', 'dependents', 'refSets', 'meta'] as const

/** The store file of a read-model folder (the newest, if an older layout was left beside it). */
export function storeFileIn(folder: string): string {
  if (!existsSync(folder)) throw new Error(`no read model at ${folder}`)
  const files = readdirSync(folder).filter((f) => /^read-model(\.v\d+)?(-[0-9a-f]+)?\.mdb$/.test(f))
    .map((f) => path.join(folder, f)).sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)
  if (!files.length) throw new Error(`no read-model file in ${folder}`)
  return files[0]
}

/** The resource of an ordered-binary key whose first element is a resource name (bytes up to the first 0). */
function resourceOfKey(key: Buffer): string | undefined {
  if (key.length === 0 || key[0] < 0x20) return undefined // msgpackr's shared structures, not a row
  const end = key.indexOf(0)
  return key.toString('utf8', 0, end < 0 ? key.length : end)
}

export function readModelStats(file: string, cat: Catalogue): ReadModelStats {
  const root = open({ path: file, readOnly: true, compression: false } as never)
  try {
    const large = largeColumnsOf(cat)
    const byResource = new Map<string, ResourceStats>()
    const of = (resource: string) => {
      let s = byResource.get(resource)
      if (!s) { s = { resource, rows: 0, deleted: 0, keyBytes: 0, valueBytes: 0, largeBytes: 0, renderedRows: 0, renderedBytes: 0, listEntries: 0, listBytes: 0 }; byResource.set(resource, s) }
      return s
    }
    const databases: DbStats[] = []
    for (const name of SUB_DATABASES) {
      const raw = root.openDB({ name, encoding: 'binary', keyEncoding: 'binary', ...(name === 'refs' ? { dupSort: true } : {}) } as never) as Database<Buffer, Buffer>
      const st = raw.getStats() as { pageSize: number; treeBranchPageCount: number; treeLeafPageCount: number; overflowPages: number }
      const db: DbStats = { name, entries: 0, keyBytes: 0, valueBytes: 0, pageBytes: st.pageSize * (st.treeBranchPageCount + st.treeLeafPageCount + st.overflowPages) }
      for (const { key, value } of raw.getRange({})) {
        const k = key as unknown as Buffer
        db.entries++
        db.keyBytes += k.length
        db.valueBytes += value.length
        const resource = name === 'entities' || name === 'rendered' || name === 'lists' ? resourceOfKey(k) : undefined
        if (resource === undefined) continue
        const s = of(resource)
        if (name === 'entities') { s.keyBytes += k.length; s.valueBytes += value.length }
        else if (name === 'rendered') { s.renderedRows++; s.renderedBytes += k.length + value.length }
        else { s.listEntries++; s.listBytes += k.length + value.length }
      }
      databases.push(db)
    }
    // Rows decoded as the store reads them: live or deleted, and the large texts they hold.
    const entities = root.openDB({ name: 'entities', sharedStructuresKey: Symbol.for('structures'), maxSharedStructures: 4_000, compression: { threshold: 1024 } } as never) as Database<{ v: number; row?: Record<string, unknown>; d?: 1 }, [string, string | number]>
    for (const s of byResource.values()) {
      if (s.keyBytes === 0) continue
      const cols = large.get(s.resource) ?? []
      for (const { key, value } of entities.getRange({ start: [s.resource] })) {
        if (key[0] !== s.resource) break
        if (value.d) { s.deleted++; continue }
        s.rows++
        for (const c of cols) { const t = value.row?.[c]; if (typeof t === 'string') s.largeBytes += Buffer.byteLength(t) }
      }
    }
    const meta = root.openDB({ name: 'meta' }) as Database<string, string>
    return {
      file, fileBytes: statSync(file).size, format: meta.get('format'),
      resources: [...byResource.values()].filter((s) => s.keyBytes > 0 || s.renderedRows > 0).sort((a, b) => (b.keyBytes + b.valueBytes + b.renderedBytes) - (a.keyBytes + a.valueBytes + a.renderedBytes)),
      databases,
    }
  } finally { void root.close() }
}

/** `opinions=10000000,dockets=3e7` → target rows per resource. */
export function parseProjection(text: string): Map<string, number> {
  const out = new Map<string, number>()
  for (const part of text.split(',').map((s) => s.trim()).filter(Boolean)) {
    const m = /^([a-z0-9-]+)=([0-9._e+]+)$/i.exec(part)
    const n = m ? Number(m[2].replace(/_/g, '')) : NaN
    if (!m || !Number.isFinite(n) || n < 0) throw new Error(`--project: expected resource=rows[,…], got ${JSON.stringify(part)}`)
    out.set(m[1], n)
  }
  if (!out.size) throw new Error('--project: name at least one resource')
  return out
}

export interface Projection { factor: (resource: string) => number; total: number; byResource: Map<string, number> }

/**
 * Bytes of entities and rendered details per resource at the rows given (others scaled with the
 * first resource named), and the total with the other sub-databases scaled by the entity rows.
 */
export function project(stats: ReadModelStats, rows: ReadonlyMap<string, number>): Projection {
  const counts = new Map(stats.resources.map((s) => [s.resource, s.rows]))
  const [firstName, firstRows] = [...rows][0]
  const firstNow = counts.get(firstName) ?? 0
  if (!firstNow) throw new Error(`--project: the store holds no ${firstName} rows to scale from`)
  const factor = (resource: string) => {
    const want = rows.get(resource)
    const now = counts.get(resource) ?? 0
    return want !== undefined ? (now ? want / now : 0) : firstRows / firstNow
  }
  const byResource = new Map<string, number>()
  let entityRowsNow = 0, entityRowsThen = 0, total = 0
  for (const s of stats.resources) {
    const f = factor(s.resource)
    byResource.set(s.resource, (s.keyBytes + s.valueBytes + s.renderedBytes) * f)
    entityRowsNow += s.rows + s.deleted
    entityRowsThen += (s.rows + s.deleted) * f
    total += (s.keyBytes + s.valueBytes + s.renderedBytes) * f
  }
  const others = stats.databases.filter((d) => d.name !== 'entities' && d.name !== 'rendered').reduce((n, d) => n + d.keyBytes + d.valueBytes, 0)
  total += entityRowsNow ? others * (entityRowsThen / entityRowsNow) : 0
  return { factor, total, byResource }
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US')
export const fmtBytes = (n: number) => (n >= 2 ** 30 ? `${(n / 2 ** 30).toFixed(2)} GB` : n >= 2 ** 20 ? `${(n / 2 ** 20).toFixed(1)} MB` : n >= 1024 ? `${(n / 1024).toFixed(1)} KB` : `${Math.round(n)} B`)

/** A Markdown table (docs/benchmarks.md takes it as it is). */
export function formatStats(stats: ReadModelStats, projection?: { rows: ReadonlyMap<string, number>; result: Projection }): string {
  const lines: string[] = []
  lines.push(`${stats.file} (format ${stats.format ?? '?'}): ${fmtBytes(stats.fileBytes)} on disk`)
  lines.push('')
  const head = ['resource', 'rows', 'deleted', 'entities bytes (keys + values)', 'bytes/row', 'of which large texts', 'rendered', 'rendered bytes', 'list entries']
  if (projection) head.push('projected rows', 'projected bytes')
  lines.push(`| ${head.join(' | ')} |`, `|${head.map((_, i) => (i ? '---:' : '---')).join('|')}|`)
  let sumRows = 0, sumBytes = 0, sumLarge = 0, sumRendered = 0, sumLists = 0
  for (const s of stats.resources) {
    const bytes = s.keyBytes + s.valueBytes
    sumRows += s.rows; sumBytes += bytes; sumLarge += s.largeBytes; sumRendered += s.renderedBytes; sumLists += s.listEntries
    const cells = [s.resource, fmt(s.rows), fmt(s.deleted), fmtBytes(bytes), s.rows + s.deleted ? fmt(bytes / (s.rows + s.deleted)) : '—', s.largeBytes ? fmtBytes(s.largeBytes) : '—', s.renderedRows ? fmt(s.renderedRows) : '—', s.renderedBytes ? fmtBytes(s.renderedBytes) : '—', s.listEntries ? fmt(s.listEntries) : '—']
    if (projection) cells.push(fmt((s.rows + s.deleted) * projection.result.factor(s.resource)), fmtBytes(projection.result.byResource.get(s.resource) ?? 0))
    lines.push(`| ${cells.join(' | ')} |`)
  }
  const total = ['**all**', fmt(sumRows), '', fmtBytes(sumBytes), '', fmtBytes(sumLarge), '', fmtBytes(sumRendered), fmt(sumLists)]
  if (projection) total.push('', `${fmtBytes(projection.result.total)} (with lists, refs, …)`)
  lines.push(`| ${total.join(' | ')} |`)
  lines.push('')
  lines.push('| sub-database | entries | keys + values | pages |', '|---|---:|---:|---:|')
  for (const d of stats.databases) lines.push(`| ${d.name} | ${fmt(d.entries)} | ${fmtBytes(d.keyBytes + d.valueBytes)} | ${fmtBytes(d.pageBytes)} |`)
  return lines.join('\n')
}
