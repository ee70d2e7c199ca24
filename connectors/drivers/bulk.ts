/** Drives the bulk-data connector: files → publisher, with a progress bar and a dead-letter file. */
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { openPublisher, type PublisherDeps } from '../../schemas/events/publisher.js'
import { readBulkDir } from '../bulk/index.js'
import { createBulkProgress } from '../bulk/progress.js'

export async function ingestBulk(rt: PublisherDeps, dir: string, opts: { deadLetterPath?: string; progress?: boolean } = {}) {
  const started = Date.now()
  const deadLetterPath = opts.deadLetterPath ?? path.join(rt.cfg.dataDir, 'dead-letters', `bulk-${Date.now()}.jsonl`)
  mkdirSync(path.dirname(deadLetterPath), { recursive: true })
  let current = { file: '', line: 0 }
  // Rows the CSV layer accepts but the column types refuse land in the same file, with their line.
  const pub = await openPublisher(rt, (resource, record, reason) =>
    appendFileSync(deadLetterPath, JSON.stringify({ file: current.file, line: current.line, resource, reason, raw: record }) + '\n'))
  const progress = opts.progress === false ? undefined : createBulkProgress()
  const byResource: Record<string, number> = {}
  const skippedFiles: string[] = []
  try {
    for await (const item of readBulkDir(dir, { deadLetterPath, onProgress: (p) => progress?.update(p), onSkippedFile: (n) => skippedFiles.push(n) })) {
      current = { file: item.file, line: item.line }
      await pub.upsert(item.resource, item.record)
      byResource[item.resource] = (byResource[item.resource] ?? 0) + 1
    }
    await pub.flush()
  } finally {
    progress?.stop()
    await pub.stop()
  }
  const refused = existsSync(deadLetterPath) ? readFileSync(deadLetterPath, 'utf8').split('\n').filter(Boolean).length : 0
  return { published: pub.stats.published, refused, deadLetterPath, skippedFiles, seconds: (Date.now() - started) / 1000, byResource }
}
