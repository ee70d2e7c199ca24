/**
 * The `audio` role: reads the audio topic and makes each record's original into the spec's MP3
 * (streams/audio/convert.ts), then publishes a new version of the record (local_path_mp3,
 * duration, processing_complete, the original's sha1, date_modified).
 *
 * A record is worked on when its source (sha1, download_url, local original) or what its tags are
 * made from is new to the role; the role's own published versions, and records seen before, are
 * not (the state is kept per record beside the files: streams/audio/state.ts). A failure is a
 * state: the record is published with processing_complete=false, the reason counted and logged,
 * and a failure that may pass is tried again on a bounded schedule (domain/audio/retry.ts, scaled
 * by the clock); the batch goes on. ffmpeg is installed when missing, in the background: the role
 * starts reading once it is there, and never delays the rest of the process.
 *
 * A record's file is its own (the path carries its id: domain/audio/paths.ts). When a record is
 * deleted, or its new version is published under another path, the file it no longer uses is
 * removed (streams/audio/cleanup.ts). The role also reads the courts topic: a court's new name is
 * written into the tags of its arguments' MP3s in place (stream copy, no transcode,
 * streams/audio/retag.ts); the records' published fields do not change, so nothing is published.
 */
import { existsSync } from 'node:fs'
import path from 'node:path'
import pMap from 'p-map'
import client from 'prom-client'
import type { Kafka } from 'kafkajs'
import type { Config } from '../../core/config.js'
import type { Logger } from '../../core/logger.js'
import type { Registry } from '../../core/registry.js'
import type { Db } from '../../core/clickhouse.js'
import type { Clock } from '../../core/clock.js'
import type { Publisher } from '../../core/events/publisher.js'
import { metricsRegistry } from '../../core/metrics.js'
import { entityTopic, dlqTopic, groupId, createDecoder, validateEntityEvent, type EntityEvent } from '../../schemas/events/index.js'
import { startStream, type StreamDef, type ConsumerTimeouts } from '../runner.js'
import { createRemoteFileFetcher, type RemoteFileFetcher } from '../../clients/remote-file.js'
import { ensureFfmpeg } from '../../infra/debian.js'
import { audioTags, courtTags, outputFingerprint } from '../../domain/audio/tags.js'
import { mp3PathFor } from '../../domain/audio/paths.js'
import { audioRetryDelay, AUDIO_RETRY_DELAYS_MS } from '../../domain/audio/retry.js'
import { checkLogoFile, createArtStore } from './art.js'
import { convert, removeStaleTemporaries } from './convert.js'
import { removeUnusedMp3 } from './cleanup.js'
import { retagMp3 } from './retag.js'
import { AudioFailure } from './failure.js'
import type { FfmpegTools } from './ffmpeg.js'
import { docketFacts, argumentFacts, type DocketFacts } from './facts.js'
import { createStateStore, sourceKey, type AudioState } from './state.js'

export const AUDIO_PROCESSOR = 'audio'

/** How often the role looks for failed records whose next attempt is due (scheduled time: scaled by the clock). */
const RETRY_SCAN_MS = 30_000
/** The longest one ffmpeg run may take: hours of argument transcode in minutes. */
const TRANSCODE_TIMEOUT_MS = 20 * 60_000

const outcomes = new client.Counter({
  name: 'lds_audio_records_total', help: 'Audio records handled by the audio role, by outcome (made, unchanged, failed, retagged, deleted) and failure reason.',
  labelNames: ['outcome', 'reason'], registers: [metricsRegistry],
})
const transcodeSeconds = new client.Histogram({
  name: 'lds_audio_convert_seconds', help: 'Time to fetch, transcode and tag one original.', buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 1200], registers: [metricsRegistry],
})

type Row = Record<string, unknown>

/** One batch of the role's two topics: audio records, and courts (whose names the tags carry). */
interface Batch { audio: EntityEvent[]; courts: EntityEvent[] }

export interface AudioDeps {
  cfg: Config; kafka: Kafka; registry: Registry; log: Logger; db: Db; clock: Clock; publisher: Publisher
  /** ffmpeg and ffprobe; found or installed when not given. */
  tools?: FfmpegTools
  fetcher?: RemoteFileFetcher
  retryDelaysMs?: readonly number[]
  transcodeTimeoutMs?: number
  consumerTimeouts?: ConsumerTimeouts
}

export interface AudioProcessor {
  /** Resolves once ffmpeg is there and the role reads its topic (rejects when it cannot start). */
  started: Promise<void>
  stop(): Promise<void>
}

/** The inputs of a record's tags and path that live in the record itself. */
function recordKey(r: Row): string {
  return JSON.stringify([r.case_name ?? '', r.case_name_short ?? '', r.case_name_full ?? '', r.docket_id ?? '', r.date_created ?? ''])
}

/** Whether the role already handled this version: its own output, or a failure waiting for its retry or a change. */
function alreadyHandled(storageDir: string, r: Row, state: AudioState | undefined): boolean {
  if (!state || state.source !== sourceKey(r) || state.record?.key !== recordKey(r)) return false
  if (state.status === 'failed') return true
  return r.processing_complete === true && r.local_path_mp3 === state.mp3Path && existsSync(path.join(storageDir, String(state.mp3Path)))
}

/** The fields the role owns differ between two versions (nothing else is compared: the rest is the source's). */
function differs(a: Row, b: Row): boolean {
  return ['local_path_mp3', 'duration', 'processing_complete', 'sha1'].some((f) => a[f] !== b[f])
}

/** Stands in for ffmpeg where a record has no original: conversion stops at the fetch, before any tool runs. */
const NO_TOOLS: FfmpegTools = { ffmpeg: 'ffmpeg', ffprobe: 'ffprobe' }

export function startAudioProcessor(deps: AudioDeps): AudioProcessor {
  const { cfg, clock } = deps
  const log = deps.log.child({ stream: AUDIO_PROCESSOR })
  const storageDir = cfg.audio.storageDir
  // A logo that is not a PNG or JPEG stops the role here, with one line naming it (not a silent generated logo).
  if (cfg.audio.logoFile) checkLogoFile(cfg.audio.logoFile)
  const states = createStateStore(storageDir)
  const fetcher = deps.fetcher ?? createRemoteFileFetcher({ allowInsecure: cfg.audio.allowInsecure })
  const art = createArtStore({ storageDir, sealsDir: cfg.audio.sealsDir, logoFile: cfg.audio.logoFile, publisher: 'Legal Data Service' })
  const delays = deps.retryDelaysMs ?? AUDIO_RETRY_DELAYS_MS
  const transcodeTimeoutMs = deps.transcodeTimeoutMs ?? TRANSCODE_TIMEOUT_MS
  const decode = createDecoder(deps.registry)
  const inFlight = new Set<number>()
  let stream: Awaited<ReturnType<typeof startStream>> | undefined
  let retryTimer: NodeJS.Timeout | undefined
  let stopping = false
  // ffmpeg is looked for (and installed if missing) when the first record with an original comes:
  // a deployment or a test with no originals never installs it.
  let toolsReady: Promise<FfmpegTools> | undefined
  const toolsOf = () => (toolsReady ??= deps.tools ? Promise.resolve(deps.tools) : ensureFfmpeg((m) => log.info(m)))
  const hasOriginal = (record: Row) => Boolean(record.download_url) ||
    (typeof record.local_path_original_file === 'string' && record.local_path_original_file !== '' && existsSync(path.join(storageDir, record.local_path_original_file)))

  async function publish(record: Row, next: Row): Promise<void> {
    if (!differs(record, next)) return
    await deps.publisher.upsert('audio', { ...next, date_modified: new Date(clock.now()).toISOString() })
  }

  /**
   * One record, start to end: never throws for the record's own faults (they become its failed
   * state). Resolves with the path of a file the record no longer uses (its MP3 moved), if any.
   */
  async function handle(record: Row, previous: AudioState | undefined, docket: DocketFacts | undefined): Promise<string | undefined> {
    const id = Number(record.id)
    if (inFlight.has(id)) return undefined
    inFlight.add(id)
    const started = performance.now()
    const key = recordKey(record)
    try {
      if (!docket) throw new AudioFailure('no-docket', `docket ${String(record.docket_id)} is not in the dockets table (yet)`)
      const facts = argumentFacts(record, docket, cfg.publicBaseUrl)
      const mp3Path = mp3PathFor({ id, case_name: record.case_name, local_path_mp3: record.local_path_mp3 }, facts.dateArgued)
      let tools: FfmpegTools
      try { tools = hasOriginal(record) ? await toolsOf() : NO_TOOLS } catch (err) { throw new AudioFailure('transcode-failed', `ffmpeg is not available: ${(err as Error).message}`) }
      const tags = audioTags(facts)
      const done = await convert({ tools, fetcher, art, storageDir, transcodeTimeoutMs }, {
        record, courtId: facts.courtId, courtName: facts.courtName, tags, mp3Path, previous,
      })
      const next: Row = { ...record, local_path_mp3: mp3Path, duration: Math.max(1, Math.round(done.durationSeconds)), processing_complete: true, sha1: done.originalSha1 }
      await publish(record, next)
      await states.put(id, { status: 'done', source: sourceKey(next), fingerprint: done.fingerprint, originalSha1: done.originalSha1, mp3Path, courtId: facts.courtId, tags, record: { key } })
      outcomes.inc({ outcome: done.made ? 'made' : 'unchanged', reason: '' })
      transcodeSeconds.observe((performance.now() - started) / 1000)
      log.info({ id, mp3: mp3Path, seconds: Math.round(done.durationSeconds), made: done.made }, 'audio: MP3 ready')
      return previous?.mp3Path && previous.mp3Path !== mp3Path ? previous.mp3Path : undefined
    } catch (err) {
      const failure = err instanceof AudioFailure ? err : new AudioFailure('transcode-failed', (err as Error).message)
      const next: Row = { ...record, processing_complete: false }
      const failures = (previous?.status === 'failed' && previous.source === sourceKey(next) ? previous.failures ?? 0 : 0) + 1
      const delay = failure.retryable ? audioRetryDelay(failures, delays) : null
      await publish(record, next)
      await states.put(id, {
        status: 'failed', source: sourceKey(next), failures, reason: failure.reason, message: failure.message, mp3Path: previous?.mp3Path,
        nextAttemptAt: delay === null ? null : clock.now() + clock.scaled(delay), record: { ...next, key },
      })
      outcomes.inc({ outcome: 'failed', reason: failure.reason })
      // A record without any original is common (metadata-only sources) and not news.
      // Expected states are not warnings: a record without an original, or one whose docket the
      // table sink has not written yet (the first load publishes them side by side; retried).
      const expected = failure.reason === 'no-original' || (failure.reason === 'no-docket' && failures === 1)
      log[expected ? 'debug' : 'warn']({ id, reason: failure.reason, failures, retryInMs: delay }, `audio: ${failure.message}`)
      return undefined
    } finally { inFlight.delete(id) }
  }

  async function work(records: Row[], previous: Map<number, AudioState | undefined>): Promise<void> {
    if (!records.length) return
    const dockets = await docketFacts(deps.db, records.map((r) => Number(r.docket_id)).filter(Number.isFinite))
    const unused = await pMap(records, async (r) => ({ id: Number(r.id), mp3Path: await handle(r, previous.get(Number(r.id)), dockets.get(Number(r.docket_id))) }), { concurrency: cfg.audio.concurrency })
    await deps.publisher.flush()
    // Only once the versions naming the new paths are published.
    for (const { id, mp3Path } of unused) if (mp3Path) await removeFile(id, mp3Path, 'its path changed')
  }

  async function removeFile(id: number, mp3Path: string, why: string): Promise<void> {
    if (await removeUnusedMp3(storageDir, states, id, mp3Path)) log.info({ id, mp3: mp3Path }, `audio: MP3 removed (${why})`)
  }

  /** A deleted record: its file and its state go (a replayed delete finds neither, and is fine). */
  async function forget(id: number): Promise<void> {
    const state = await states.get(id)
    if (state?.mp3Path) await removeFile(id, state.mp3Path, 'its record was deleted')
    if (state) { await states.remove(id); outcomes.inc({ outcome: 'deleted', reason: '' }) }
  }

  /** Courts' names as they now are: every MP3 made with another name for that court is re-tagged. */
  async function renameCourts(names: Map<string, string>): Promise<void> {
    if (!names.size) return
    const stale = (await states.list()).filter(({ id, state }) => state.status === 'done' && state.courtId && state.tags && state.mp3Path && state.originalSha1 &&
      names.has(state.courtId) && state.tags.artist !== names.get(state.courtId) && !inFlight.has(id))
    if (!stale.length) return
    const tools = await toolsOf()
    await pMap(stale, async ({ id, state }) => {
      const renamed = courtTags(names.get(state.courtId!)!)
      const tags = { ...state.tags!, ...renamed }
      try {
        await retagMp3({ tools, storageDir, timeoutMs: transcodeTimeoutMs }, state.mp3Path!, renamed)
        await states.put(id, { ...state, tags, fingerprint: outputFingerprint(state.originalSha1!, tags) })
        outcomes.inc({ outcome: 'retagged', reason: '' })
        log.info({ id, mp3: state.mp3Path, court: state.courtId }, 'audio: MP3 re-tagged with the court\'s new name')
      } catch (err) {
        // The file keeps the old name; the record's next change makes it again with the new one.
        log.warn({ id, mp3: state.mp3Path, err: (err as Error).message }, 'audio: could not re-tag an MP3 with its court\'s new name')
      }
    }, { concurrency: cfg.audio.concurrency })
  }

  async function sink(batch: Batch): Promise<void> {
    const latest = new Map<number, EntityEvent>()
    for (const e of batch.audio) latest.set(Number(e.key), e)
    const todo: Row[] = []
    const previous = new Map<number, AudioState | undefined>()
    for (const [id, e] of latest) {
      if (e.op === 'delete' || !e.entity) { await forget(id); continue }
      const state = await states.get(id)
      if (alreadyHandled(storageDir, e.entity, state)) continue
      previous.set(id, state)
      todo.push(e.entity)
    }
    await work(todo, previous)
    const names = new Map<string, string>()
    for (const e of batch.courts) if (e.op === 'upsert' && e.entity) names.set(e.key, String(e.entity.full_name || e.key))
    await renameCourts(names)
  }

  async function retryDue(): Promise<void> {
    const due = (await states.due(clock.now())).filter(({ id }) => !inFlight.has(id))
    if (!due.length) return
    const records = due.map(({ state }) => { const { key: _key, ...r } = state.record ?? {}; return r })
    await work(records, new Map(due.map(({ id, state }) => [id, state])))
  }

  // The topic's batches and the retry scan take turns: a delete never races an attempt at its record.
  let turn: Promise<unknown> = Promise.resolve()
  function inTurn(fn: () => Promise<void>): Promise<void> {
    const mine = turn.then(fn)
    turn = mine.catch(() => {})
    return mine
  }

  function scheduleRetries(): void {
    if (stopping) return
    retryTimer = setTimeout(() => {
      inTurn(retryDue).catch((err) => log.warn({ err: (err as Error).message }, 'audio: retry scan failed')).finally(scheduleRetries)
    }, clock.scaled(RETRY_SCAN_MS))
    retryTimer.unref()
  }

  const started = (async () => {
    const stale = await removeStaleTemporaries(storageDir)
    if (stale) log.info({ removed: stale }, 'audio: temporary files of a stopped run removed')
    if (stopping) return
    const audioTopic = entityTopic(cfg, 'audio')
    const def: StreamDef<EntityEvent, Batch> = {
      name: AUDIO_PROCESSOR,
      groupId: groupId(cfg, AUDIO_PROCESSOR),
      topics: [audioTopic, entityTopic(cfg, 'courts')],
      dlqTopic: dlqTopic(cfg, AUDIO_PROCESSOR),
      async decode(m) { return validateEntityEvent(await decode(m.message.value)) },
      transform: (events) => ({
        audio: events.filter((e) => e.source.topic === audioTopic).map((e) => e.event),
        courts: events.filter((e) => e.source.topic !== audioTopic).map((e) => e.event),
      }),
      sink: (batch) => inTurn(() => sink(batch)),
      timeouts: deps.consumerTimeouts,
    }
    stream = await startStream(def, deps)
    scheduleRetries()
  })()
  started.catch((err) => log.error({ err: (err as Error).message }, 'audio: the role could not start (no MP3s will be made)'))

  return {
    started,
    async stop() {
      stopping = true
      clearTimeout(retryTimer)
      await started.catch(() => {})
      await stream?.stop()
      await fetcher.close()
    },
  }
}
