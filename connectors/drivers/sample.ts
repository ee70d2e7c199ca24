/**
 * Connector drivers for the CLI: stream records from a source into the publisher with a
 * progress bar, and report what was published and what was refused.
 */
import { appendFileSync, mkdirSync } from 'node:fs'
import path from 'node:path'
import cliProgress from 'cli-progress'
import { openPublisher, type PublisherDeps } from '../../schemas/events/publisher.js'
import { loadCourts } from '../sample/courts.js'
import { generateSample } from '../sample/generator.js'
import { entityTopic } from '../../schemas/events/index.js'

export interface IngestSummary { published: number; invalid: number; seconds: number; byResource: Record<string, number> }

function deadLetterWriter(file: string) {
  mkdirSync(path.dirname(file), { recursive: true })
  return (resource: string, record: Record<string, unknown>, reason: string) =>
    appendFileSync(file, JSON.stringify({ resource, reason, record }) + '\n')
}

/** True when the courts topic already holds data: the sample set was loaded before. */
export async function sampleAlreadyLoaded(rt: PublisherDeps): Promise<boolean> {
  const admin = rt.kafka.admin()
  await admin.connect()
  try {
    const topic = entityTopic(rt.cfg, 'courts')
    if (!(await admin.listTopics()).includes(topic)) return false
    const offsets = await admin.fetchTopicOffsets(topic)
    return offsets.some((o) => Number(o.high) > 0)
  } finally { await admin.disconnect() }
}

/**
 * Publishes the courts and a generated corpus. `today` (YYYY-MM-DD) fixes the day the sample is
 * taken; by default it is the clock's, so the data runs up to the day it is loaded.
 */
export async function ingestSample(rt: PublisherDeps, opts: { opinions: number; seed: number; progress?: boolean; today?: string }): Promise<IngestSummary> {
  const started = Date.now()
  const deadLetters = path.join(rt.cfg.dataDir, 'dead-letters', `sample-${Date.now()}.jsonl`)
  const pub = await openPublisher(rt, deadLetterWriter(deadLetters))
  const byResource: Record<string, number> = {}
  const bar = opts.progress === false ? undefined : new cliProgress.SingleBar({
    format: 'sample |{bar}| {value}/{total} opinions | {records} records | {rate} rec/s | eta {eta_formatted}',
    hideCursor: true, noTTYOutput: true, notTTYSchedule: 5000, etaBuffer: 50,
  }, cliProgress.Presets.shades_classic)
  bar?.start(opts.opinions, 0, { records: 0, rate: 0 })
  let records = 0
  let opinions = 0
  try {
    const courts = loadCourts()
    const all = function* () {
      for (const record of courts) yield { resource: 'courts', record }
      yield* generateSample({ seed: opts.seed, opinions: opts.opinions, courts, today: opts.today })
    }
    for (const { resource, record } of all()) {
      await pub.upsert(resource, record)
      byResource[resource] = (byResource[resource] ?? 0) + 1
      records++
      if (resource === 'opinions') opinions++
      if (records % 500 === 0) bar?.update(opinions, { records, rate: Math.round(records / ((Date.now() - started) / 1000)) })
    }
    await pub.flush()
  } finally {
    bar?.update(opinions, { records, rate: Math.round(records / Math.max(0.001, (Date.now() - started) / 1000)) })
    bar?.stop()
    await pub.stop()
  }
  if (pub.stats.invalid) rt.log.warn({ file: deadLetters, invalid: pub.stats.invalid }, 'some sample records were refused')
  return { published: pub.stats.published, invalid: pub.stats.invalid, seconds: (Date.now() - started) / 1000, byResource }
}
