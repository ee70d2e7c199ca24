/**
 * How far a consumer group has committed one topic, for a stage that may go on only once another
 * group has consumed what it published (the repartition stage waits for the indexer: see
 * repartition.ts). Commits made in this process are told at once (`committed`); the others' are
 * asked of the broker every POLL_MS while someone waits.
 */
import type { Kafka, Admin } from 'kafkajs'

const POLL_MS = 100

export interface CommitWatch {
  /** A commit of this process's member: `next` is the offset after the last one consumed. */
  committed(partition: number, next: bigint): void
  /** Resolves true once every partition of `ends` is committed up to its offset, false after `sliceMs`. */
  reached(ends: ReadonlyMap<number, bigint>, sliceMs: number): Promise<boolean>
  stop(): Promise<void>
}

export function createCommitWatch(kafka: Pick<Kafka, 'admin'>, groupId: string, topic: string): CommitWatch {
  const known = new Map<number, bigint>()
  const wakers = new Set<() => void>()
  let admin: Promise<Admin> | undefined
  const connected = () => (admin ??= (async () => { const a = kafka.admin(); await a.connect(); return a })())
  const learn = (partition: number, next: bigint) => { if ((known.get(partition) ?? -1n) < next) known.set(partition, next) }
  const done = (ends: ReadonlyMap<number, bigint>) => [...ends].every(([p, end]) => (known.get(p) ?? -1n) >= end)
  async function poll(): Promise<void> {
    const [offsets] = await (await connected()).fetchOffsets({ groupId, topics: [topic] })
    for (const { partition, offset } of offsets?.partitions ?? []) if (/^\d+$/.test(offset)) learn(partition, BigInt(offset))
  }
  return {
    committed(partition, next) {
      learn(partition, next)
      for (const wake of wakers) wake()
    },
    async reached(ends, sliceMs) {
      const deadline = Date.now() + sliceMs
      for (;;) {
        if (done(ends)) return true
        await poll().catch(() => { /* asked again next turn; the caller's deadline bounds the wait */ })
        if (done(ends)) return true
        const left = deadline - Date.now()
        if (left <= 0) return false
        await new Promise<void>((resolve) => {
          const wake = () => { clearTimeout(timer); wakers.delete(wake); resolve() }
          const timer = setTimeout(wake, Math.min(POLL_MS, left))
          wakers.add(wake)
        })
      }
    },
    async stop() { if (admin) await admin.then((a) => a.disconnect()).catch(() => { /* never connected, or gone */ }) },
  }
}
