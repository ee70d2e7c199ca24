/**
 * `lds publish <resource> [file.jsonl|-]`: a generic connector. Each line is one JSON object in the
 * resource's v4 field names, related objects given by their id (`{"id": 9001, "docket": 42,
 * "entry_number": 7, "description": "…", "date_filed": "2026-11-23"}` for docket-entries); it is
 * checked by the catalogue (field kinds, required keys) and published as an upsert. A line that
 * cannot be read or checked is reported with its number and reason, and the others go on.
 */
import { createReadStream } from 'node:fs'
import { createInterface } from 'node:readline'
import type { Readable } from 'node:stream'
import { columnOf } from '../../schemas/define.js'
import { isStored } from '../../schemas/kinds.js'
import type { Catalogue } from '../../schemas/catalogue/index.js'
import { openPublisher, type PublisherDeps } from '../../core/events/publisher.js'
import { createEntityCodec } from '../../schemas/events/entity-codec.js'

export interface PublishReport { published: number; refused: { line: number; reason: string }[]; seconds: number }

/** A v4-shaped object → the storage record the codec checks (`docket` → `docket_id`, `tags` → `tags_ids`). */
export function toStorage(cat: Catalogue, resource: string, obj: Record<string, unknown>): Record<string, unknown> {
  const r = cat.storageOf(cat.get(resource))
  const out: Record<string, unknown> = {}
  for (const [name, d] of Object.entries(r.fields)) {
    if (!isStored(d.kind)) continue
    const col = columnOf(name, d)
    if (col in obj) out[col] = obj[col]
    else if (name in obj) out[col] = obj[name]
  }
  return out
}

export async function publishLines(deps: PublisherDeps, resource: string, input: Readable, opts: { now?: () => string } = {}): Promise<PublishReport> {
  const started = Date.now()
  const cat = deps.catalogue
  if (!cat.has(resource)) throw new Error(`unknown resource ${resource}; known: ${cat.stored.map((r) => r.name).join(', ')}`)
  const target = cat.storageOf(cat.get(resource))
  const codec = createEntityCodec(cat, target)
  const now = opts.now ?? (() => new Date().toISOString())
  const refused: PublishReport['refused'] = []
  let published = 0
  let lineNo = 0
  const pub = await openPublisher(deps)
  try {
    for await (const line of createInterface({ input, crlfDelay: Infinity })) {
      lineNo++
      if (!line.trim()) continue
      let obj: unknown
      try { obj = JSON.parse(line) } catch (err) { refused.push({ line: lineNo, reason: `not JSON: ${(err as Error).message}` }); continue }
      if (!obj || typeof obj !== 'object' || Array.isArray(obj)) { refused.push({ line: lineNo, reason: 'expected a JSON object' }); continue }
      const record = toStorage(cat, resource, obj as Record<string, unknown>)
      // Timestamps the producer did not give are the time of publishing.
      if ('date_created' in target.fields && record.date_created === undefined) record.date_created = now()
      if ('date_modified' in target.fields && record.date_modified === undefined) record.date_modified = now()
      try { codec.toEntity(record); codec.keyOf(record) } catch (err) { refused.push({ line: lineNo, reason: (err as Error).message }); continue }
      await pub.upsert(target.name, record)
      published++
    }
    await pub.flush()
  } finally { await pub.stop() }
  return { published, refused, seconds: (Date.now() - started) / 1000 }
}

export const openInput = (file: string | undefined): Readable => (!file || file === '-' ? process.stdin : createReadStream(file))
