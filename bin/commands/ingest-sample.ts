/**
 * Connector drivers for the CLI: stream records from a source into the publisher with a
 * progress bar, and report what was published and what was refused.
 */
import { appendFileSync, mkdirSync } from 'node:fs'
import path from 'node:path'
import cliProgress from 'cli-progress'
import { createPublisher, type PublisherDeps } from '../../core/events/publisher.js'
import { loadCourts } from '../../connectors/sample/courts.js'
import { generateSample } from '../../connectors/sample/generator.js'
import { entityTopic } from '../../schemas/events/index.js'

export interface IngestSummary { published: number; invalid: number; seconds: number; byResource: Record<string, number> }

/**
 * Batches of the sample load: larger than the publisher's default, so that its forty-odd topics
 * take fewer acknowledged round trips (each topic buffers at most this much; a partition's share
 * stays well under the broker's 16 MB message limit).
 */
const SAMPLE_BATCH = { batchSize: 5000, batchBytes: 8 * 1024 * 1024 }
/** Batches that may be on their way to the broker while the generator goes on (the producer sends them in turn). */
const BATCHES_IN_FLIGHT = 4

/**
 * Lets records be handed to the publisher without waiting for the batch one of them completes:
 * the generator keeps working while the broker acknowledges. Every `check` records, the hand-overs
 * that only buffered are let settle, and the caller waits while more than `max` batches are out;
 * the first failure is thrown there, or by `drain`.
 */
function sendWindow(max: number, check = 256) {
  const pending = new Set<Promise<void>>()
  let failure: { error: unknown } | undefined
  let since = 0
  return {
    async add(p: Promise<void>) {
      pending.add(p)
      p.then(() => pending.delete(p), (error) => { pending.delete(p); failure ??= { error } })
      if (++since < check) return
      since = 0
      await new Promise<void>((resolve) => setImmediate(resolve))
      while (pending.size > max && !failure) await Promise.race(pending).catch(() => undefined)
      if (failure) throw failure.error
    },
    async drain() {
      await Promise.allSettled(pending)
      if (failure) throw failure.error
    },
  }
}

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
  const pub = createPublisher({ ...rt, ...SAMPLE_BATCH, onInvalid: deadLetterWriter(deadLetters) })
  await pub.start()
  const byResource: Record<string, number> = {}
  const bar = opts.progress === false ? undefined : new cliProgress.SingleBar({
    format: 'sample |{bar}| {value}/{total} opinions | {records} records | {rate} rec/s | eta {eta_formatted}',
    hideCursor: true, noTTYOutput: true, notTTYSchedule: 5000, etaBuffer: 50,
  }, cliProgress.Presets.shades_classic)
  bar?.start(opts.opinions, 0, { records: 0, rate: 0 })
  let records = 0
  let opinions = 0
  const window = sendWindow(BATCHES_IN_FLIGHT)
  try {
    const courts = loadCourts()
    const all = function* () {
      for (const record of courts) yield { resource: 'courts', record }
      yield* generateSample({ seed: opts.seed, opinions: opts.opinions, courts, today: opts.today })
    }
    for (const { resource, record } of all()) {
      await window.add(pub.upsert(resource, record))
      byResource[resource] = (byResource[resource] ?? 0) + 1
      records++
      if (resource === 'opinions') opinions++
      if (records % 500 === 0) bar?.update(opinions, { records, rate: Math.round(records / ((Date.now() - started) / 1000)) })
    }
    await window.drain()
    await pub.flush()
  } finally {
    await window.drain().catch(() => undefined)
    bar?.update(opinions, { records, rate: Math.round(records / Math.max(0.001, (Date.now() - started) / 1000)) })
    bar?.stop()
    await pub.stop()
  }
  if (pub.stats.invalid) rt.log.warn({ file: deadLetters, invalid: pub.stats.invalid }, 'some sample records were refused')
  return { published: pub.stats.published, invalid: pub.stats.invalid, seconds: (Date.now() - started) / 1000, byResource }
}
