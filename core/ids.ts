/**
 * Ids of the rows the service creates (API writes, `lds users create`, `lds webhooks add`, rows a
 * processor makes), unique by construction across any number of processes and hosts.
 *
 * The scheme: block leases from Kafka. A process that needs ids produces one small message to a
 * topic of its own (`<prefix>ids`: one partition, not compacted, short retention; schemas/topics.ts
 * creates it). The offset Kafka assigns to that message belongs to that one send, so the block
 *   [ID_BASE + offset * ID_BLOCK_SIZE, ID_BASE + (offset + 1) * ID_BLOCK_SIZE)
 * is this process's alone; its ids are handed out one by one from memory. There is no coordination
 * on the hot path: one round trip per ID_BLOCK_SIZE ids, and the next block is leased when half of
 * the current one is used, so a steady writer never waits for a lease (only the first id of a
 * process does: leases are taken lazily, a process that creates nothing leases nothing).
 *
 * Why this rather than something simpler: a per-process counter is unique only within its process;
 * clock-based ids (the old `Date.now() * 1000 + random(1000)`) collide one time in a thousand for
 * two creates in one millisecond, and the compacted topic then silently keeps one of the two rows;
 * a node number per process plus the clock (snowflake-like) needs node numbers that are unique
 * among live processes (a lease with liveness, i.e. coordination again) and breaks when a clock
 * steps back. An offset in one partition is unique by construction, survives restarts (the log end
 * offset never moves back, whatever retention deletes) and costs one send per block.
 *
 * What uniqueness rests on:
 *  - leases are sent with acks=all, so an acknowledged offset is not truncated and reassigned by a
 *    new leader after a broker failover (with unclean leader election disabled, Kafka's default);
 *  - a send that timed out or was retried may still land: its offset is simply never used (a hole
 *    in the id space, never a repeat), because only the offset returned to this process is used;
 *  - the ids topic is never deleted while the deployment's entity topics are kept (a recreated
 *    topic starts again at offset 0). `removeDeployment` removes it with everything else.
 *
 * Limits:
 *  - ID_BASE = 3e15 is above every id of the old scheme: those were the clock in milliseconds times
 *    1000 (about 1.8e15 in 2026) and reach 3e15 only in January 2065, so new rows sort after every
 *    row made before, under the default `-id` ordering, even with an old process still running.
 *  - Number.MAX_SAFE_INTEGER (≈ 9.007e15) leaves about 6.0e15 ids, i.e. about 6.0e12 blocks of
 *    1000: at one lease a second (a thousand creates a second, sustained, or a process restart a
 *    second) that lasts about 190,000 years; at a thousand leases a second, about 190 years. A lease
 *    past it is refused with an error, never wrapped around.
 *  - Within one process ids increase (a later lease is sent after the earlier one was acknowledged,
 *    so it has a higher offset). Across processes, ids follow the order of their leases, not of
 *    their creation: a process that holds a half-used block makes ids below those of a process that
 *    leased later. Newest-first by `-id` is exact per process and approximate across processes.
 *  - At most ID_BLOCK_SIZE * 2 - 1 ids are left unused when a process stops (its current block and
 *    the one leased ahead); a one-shot CLI command uses one id of its block.
 *
 * A lease that fails (Kafka unreachable through all retries) is an error to the writer: a
 * DependencyError, which the API answers with 503. There is no fallback to random ids.
 */
import { hostname } from 'node:os'
import { Partitioners, type Kafka, type Producer } from 'kafkajs'
import pRetry from 'p-retry'
import type { Config } from './config.js'
import type { Logger } from './logger.js'
import { DependencyError, localLogFile } from './dependency-error.js'

/** Ids per lease. */
export const ID_BLOCK_SIZE = 1000
/** The first id of the first block (offset 0): above every id the old clock-based scheme issued or will issue before 2065. */
export const ID_BASE = 3_000_000_000_000_000

/** A half-open range of ids [start, end). */
export interface IdBlock { readonly start: number; readonly end: number }

/** Where rows get their ids. */
export interface IdSource {
  /** The next id of this process; rejects (DependencyError) when no block can be leased. */
  next(): Promise<number>
}

export interface IdAllocator extends IdSource {
  /** Leases taken so far (for tests and metrics). */
  readonly leases: number
  /** Releases the Kafka producer; later calls to next() reject. */
  stop(): Promise<void>
}

/** The block of ids a lease at `offset` owns. Throws when it would pass Number.MAX_SAFE_INTEGER. */
export function idBlock(offset: string | number | bigint, base = ID_BASE, size = ID_BLOCK_SIZE): IdBlock {
  const o = BigInt(offset)
  if (o < 0n) throw new RangeError(`a lease offset is not negative (got ${o})`)
  const start = BigInt(base) + o * BigInt(size)
  const end = start + BigInt(size)
  // every id of the block (end - 1) must be a safe integer
  if (end - 1n > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`the id space is exhausted: the lease at offset ${o} would pass Number.MAX_SAFE_INTEGER`)
  return { start: Number(start), end: Number(end) }
}

export interface AllocatorOptions {
  /** The next block is leased when this many ids (or fewer) are left in the current one. Default: half a block. */
  prefetchWhenLeft?: number
  /** A lease taken ahead of need failed (the writer that needs it will try again and see the error). */
  onPrefetchError?(err: unknown): void
  /** Called to release what the lease holds (the producer). */
  onStop?(): Promise<void>
}

/**
 * Hands out the ids of leased blocks, in order; `lease` takes one block (one round trip). At most one
 * lease is in flight and at most one block is held ahead: concurrent callers share the lease in flight.
 */
export function createIdAllocator(lease: () => Promise<IdBlock>, opts: AllocatorOptions = {}): IdAllocator {
  const lowWater = opts.prefetchWhenLeft ?? Math.floor(ID_BLOCK_SIZE / 2)
  let current: { next: number; end: number } | undefined
  let ahead: IdBlock | undefined
  let inflight: Promise<void> | undefined
  let leases = 0
  let stopped = false
  let lastEnd = -Infinity

  /** Takes one block into `ahead` (shared by everyone who asks while it is in flight). */
  function take(): Promise<void> {
    inflight ??= lease().then((b) => {
      if (!(Number.isSafeInteger(b.start) && Number.isSafeInteger(b.end) && b.end > b.start)) throw new RangeError(`a lease gave an empty or unsafe block [${b.start}, ${b.end})`)
      // blocks of one process are leased one after the other: each starts above the last
      if (b.start < lastEnd) throw new RangeError(`a lease gave a block [${b.start}, ${b.end}) below the previous one (ending at ${lastEnd})`)
      lastEnd = b.end
      leases++
      ahead = b
    }).finally(() => { inflight = undefined })
    return inflight
  }

  function prefetch(): void {
    if (ahead || inflight || stopped) return
    take().catch((err) => opts.onPrefetchError?.(err))
  }

  return {
    get leases() { return leases },
    async next() {
      for (;;) {
        if (stopped) throw new Error('the id allocator is stopped')
        if (current && current.next < current.end) {
          const id = current.next++
          if (current.end - current.next <= lowWater) prefetch()
          return id
        }
        if (ahead) {
          current = { next: ahead.start, end: ahead.end }
          ahead = undefined
          continue
        }
        await take()
      }
    },
    async stop() {
      if (stopped) return
      stopped = true
      await inflight?.catch(() => {})
      await opts.onStop?.()
    },
  }
}

/** Tries per lease, each bounded in time: a broker hiccup is ridden out, a dead broker answers within about 15 s. */
const LEASE_RETRIES = 3
const ATTEMPT_MS = 3_000

export interface KafkaIdOptions extends Omit<AllocatorOptions, 'onStop' | 'onPrefetchError'> {
  retries?: number
  attemptMs?: number
  /** Retry backoff: the first wait (ms), doubled after each failure. */
  minTimeout?: number
}

/**
 * An allocator whose blocks are leased from `topic` (one partition). Nothing connects until the
 * first id is asked for.
 */
export function kafkaIdAllocator(deps: { cfg: Pick<Config, 'kafkaBrokers' | 'dataDir'>; kafka: Kafka; log: Logger }, topic: string, opts: KafkaIdOptions = {}): IdAllocator {
  const log = deps.log.child({ component: 'ids' })
  const url = deps.cfg.kafkaBrokers.join(',')
  const retries = opts.retries ?? LEASE_RETRIES
  const attemptMs = opts.attemptMs ?? ATTEMPT_MS
  const origin = { host: hostname(), pid: process.pid }
  let producer: Producer | undefined
  let connected: Promise<void> | undefined

  async function attempt(): Promise<IdBlock> {
    // no auto-creation: a missing ids topic is an error, not a topic with the broker's defaults
    // (the partition is always 0; the partitioner is named only to keep KafkaJS from warning)
    producer ??= deps.kafka.producer({ allowAutoTopicCreation: false, createPartitioner: Partitioners.DefaultPartitioner, retry: { retries: 2, initialRetryTime: 100, maxRetryTime: 1_000 } })
    const p = producer
    connected ??= p.connect().catch((err) => { connected = undefined; throw err })
    await connected
    const [meta] = await p.send({ topic, acks: -1, messages: [{ partition: 0, value: JSON.stringify({ ...origin, at: new Date().toISOString() }) }] })
    if (meta?.baseOffset === undefined) throw new Error(`Kafka did not say the offset of the lease on ${topic}`)
    return idBlock(meta.baseOffset)
  }

  function bounded<T>(p: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined
    const deadline = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`no answer within ${attemptMs} ms`)), attemptMs) })
    p.catch(() => {}) // a send that outlives its deadline may still land: its offset is simply unused
    return Promise.race([p, deadline]).finally(() => clearTimeout(timer))
  }

  const lease = () => pRetry(() => bounded(attempt()), {
    retries, minTimeout: opts.minTimeout ?? 200, factor: 2, maxTimeout: 2_000,
    // the id space running out is not a hiccup
    shouldRetry: ({ error }) => !(error instanceof RangeError),
    onFailedAttempt: ({ error, attemptNumber, retriesLeft }) => {
      if (retriesLeft > 0) log.debug({ topic, attempt: attemptNumber, err: error.message }, 'id lease failed; retrying')
    },
  }).catch((err: unknown) => {
    if (err instanceof RangeError) throw err
    throw new DependencyError('Kafka', url, `did not lease a block of ids on ${topic} after ${retries + 1} attempts (${attemptMs} ms each)`, { cause: err, logFile: localLogFile(deps.cfg, 'Kafka', url) })
  })

  return createIdAllocator(lease, {
    ...opts,
    onPrefetchError: (err) => log.warn({ topic, err: (err as Error).message }, 'leasing the next block of ids failed; the next write that needs it tries again'),
    onStop: async () => {
      const p = producer
      if (p && connected) await connected.then(() => p.disconnect(), () => {})
    },
  })
}
