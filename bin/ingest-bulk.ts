/** Drives the bulk-data connector: files → publisher, with a progress bar and a dead-letter file. */
import { appendFileSync, mkdirSync } from 'node:fs'
import path from 'node:path'
import type { Runtime } from './runtime.js'
import { openPublisher } from './runtime.js'
import { readBulkDir } from '../connectors/bulk/index.js'
import { createBulkProgress } from '../connectors/bulk/progress.js'

export async function ingestBulk(rt: Runtime, dir: string, opts: { deadLetterPath?: string; progress?: boolean } = {}) {
  const started = Date.now()
  const deadLetterPath = opts.deadLetterPath ?? path.join(rt.cfg.dataDir, 'dead-letters', `bulk-${Date.now()}.jsonl`)
  mkdirSync(path.dirname(deadLetterPath), { recursive: true })
  let current = { file: '', line: 0 }
  const pub = await openPublisher(rt, (resource, record, reason) =>
    appendFileSync(deadLetterPath, JSON.stringify({ file: current.file, line: current.line, resource, reason, raw: record }) + '\n'))
  const progress = opts.progress === false ? undefined : createBulkProgress()
  const byResource: Record<string, number> = {}
  try {
    for await (const item of readBulkDir(dir, { deadLetterPath, onProgress: (p) => { current.file = p.file; progress?.update(p) } })) {
      current = { file: current.file, line: item.line }
      await pub.upsert(item.resource, item.record)
      byResource[item.resource] = (byResource[item.resource] ?? 0) + 1
    }
    await pub.flush()
  } finally {
    progress?.stop()
    await pub.stop()
  }
  return { published: pub.stats.published, invalid: pub.stats.invalid, deadLetterPath, seconds: (Date.now() - started) / 1000, byResource }
}
