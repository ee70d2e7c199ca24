/**
 * How far the processors are behind the topics they read: per consumer group, committed offsets
 * against end offsets. `npm start` shows it as a progress bar while the sample is applied, and
 * waits for zero before it says the service is ready.
 */
import type { Admin, Kafka } from 'kafkajs'
import cliProgress from 'cli-progress'
import { retryRetriable } from '../core/kafka.js'
import type { Clock } from '../core/clock.js'

export interface GroupLag { group: string; done: number; total: number }

export async function groupLag(admin: Admin, group: string, topics: string[]): Promise<GroupLag> {
  let done = 0, total = 0
  const committed = await retryRetriable(() => admin.fetchOffsets({ groupId: group, topics }))
  for (const t of committed) {
    const ends = new Map((await retryRetriable(() => admin.fetchTopicOffsets(t.topic))).map((p) => [p.partition, Number(p.high)]))
    for (const p of t.partitions) {
      const end = ends.get(p.partition) ?? 0
      const at = Number(p.offset) < 0 ? 0 : Number(p.offset)
      done += Math.min(at, end)
      total += end
    }
  }
  return { group, done, total }
}

/** Waits until every group has read everything, drawing one bar per group. */
export async function waitForCatchUp(kafka: Kafka, clock: Clock, groups: { label: string; group: string; topics: () => Promise<string[]> }[], opts: { progress?: boolean; timeoutMs?: number } = {}): Promise<void> {
  const admin = kafka.admin()
  await admin.connect()
  const bars = opts.progress === false ? undefined : new cliProgress.MultiBar({
    format: '{label} |{bar}| {value}/{total} events', hideCursor: true, noTTYOutput: true, notTTYSchedule: 5000, clearOnComplete: false,
  }, cliProgress.Presets.shades_classic)
  const rows = new Map(groups.map((g) => [g.group, bars?.create(1, 0, { label: g.label.padEnd(18) })]))
  const deadline = Date.now() + (opts.timeoutMs ?? 30 * 60_000)
  try {
    for (;;) {
      let behind = false
      try {
        for (const g of groups) {
          const lag = await groupLag(admin, g.group, await g.topics())
          rows.get(g.group)?.setTotal(Math.max(1, lag.total))
          rows.get(g.group)?.update(lag.done)
          if (lag.done < lag.total) behind = true
        }
      } catch (err) {
        // A broker too busy to answer in time (the client's metadata lock timing out while the
        // processors load it) is not a failed start: asked again next turn, until the deadline.
        if (Date.now() > deadline) throw err
        behind = true
      }
      if (!behind) return
      if (Date.now() > deadline) throw new Error('processors did not catch up in time; see the log for errors')
      await clock.sleep(500)
    }
  } finally {
    bars?.stop()
    await admin.disconnect()
  }
}
