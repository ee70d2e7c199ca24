/**
 * Case 3: the Kafka broker is SIGKILLed under load (the suite publishing, the table sink
 * consuming) and started again at once. Neither side is restarted: the producer and the consumer
 * must resume by themselves, the first progress of each within 30 s of the broker being back.
 */
import { entityTopic, groupId, PROCESSORS } from '../../../schemas/events/index.js'
import type { FaultCase } from '../lib/case.js'
import { syntheticLoad, SYNTHETIC_RESOURCE } from '../lib/load.js'
import { rawCount, syntheticTally, finalNotLatest } from '../lib/check.js'
import { waitRunning, stopRole, describeExit, logFacts } from '../lib/role.js'
import { waitFor, waitDrained } from '../lib/wait.js'
import { groupLag } from '../lib/kafka-facts.js'
import { withAdmin } from '../lib/admin.js'
import { killKafka, startKafka } from '../lib/infra.js'

/** Longest allowed time from the broker being back to the first progress of producer and consumer. */
const RESUME_LIMIT_S = 30

export const brokerSigkill: FaultCase = {
  id: 3,
  title: 'Kafka broker SIGKILLed and restarted under load',
  scope: 'infrastructure',
  async run(ctx) {
    const keys = ctx.small ? 10_000 : 100_000
    const versions = 2
    const s = await ctx.stack('broker', { LDS_SINK_FETCH_BYTES: String(256 * 1024) })
    const { rt, env } = s
    const table = rt.catalogue.get(SYNTHETIC_RESOURCE).table
    const sink = ctx.role('table-sink', 'table-sink', env)
    await waitRunning(sink)
    // Paced so that publishing goes on before, during and after the outage.
    const load = syntheticLoad(rt, keys, versions, { signal: ctx.signal, ratePerSec: ctx.small ? 1_000 : 5_000, chunk: 500 })
    const total = load.total
    await waitFor(async () => { load.ensureAlive(); return load.published() >= total / 5 && (await rawCount(rt, table)) > 0 }, 'a fifth of the load published and applied', 120_000, 50)

    const killedAt = Date.now()
    const before = { published: load.published(), rows: await rawCount(rt, table) }
    await killKafka(ctx.cfg, ctx.log)
    await startKafka(ctx.cfg, ctx.log)
    const backAt = Date.now()
    const atBack = { published: load.published(), rows: await rawCount(rt, table) }
    ctx.log(`broker back after ${((backAt - killedAt) / 1000).toFixed(1)} s; published ${atBack.published}, written ${atBack.rows}`)
    const gaveUp = () => load.finished && !load.finished.ok
      ? `the publisher gave up ${((load.finished.at - killedAt) / 1000).toFixed(1)} s after the broker was killed (broker back after ${((backAt - killedAt) / 1000).toFixed(1)} s): ${load.finished.error}`
      : undefined

    // First progress after the broker is back: the producer's acknowledged count and the sink's rows.
    const progress: { producer?: number; consumer?: number } = {}
    await waitFor(async () => {
      if (progress.producer === undefined && (load.published() > atBack.published || load.finished?.ok)) progress.producer = (Date.now() - backAt) / 1000
      if (progress.consumer === undefined && (await rawCount(rt, table)) > atBack.rows) progress.consumer = (Date.now() - backAt) / 1000
      return gaveUp() !== undefined || (progress.producer !== undefined && progress.consumer !== undefined)
    }, 'the producer and the consumer to make progress after the broker came back', 120_000, 100).catch((err) => { ctx.check(false, (err as Error).message) })
    const failure = gaveUp()
    if (failure) {
      ctx.record.details.outage = { brokerDownToBackS: (backAt - killedAt) / 1000, before, atBack, firstProgressAfterBackS: progress, sinkAlive: sink.alive() }
      ctx.record.published = load.published()
      throw new Error(failure)
    }
    const resumeS = Math.max(progress.producer ?? Infinity, progress.consumer ?? Infinity)
    ctx.record.details.outage = {
      brokerDownToBackS: (backAt - killedAt) / 1000, before, atBack,
      firstProgressAfterBackS: progress, sinkAlive: sink.alive(),
    }
    ctx.check(sink.alive(), `the table sink exited during the broker outage (${sink.exit ? describeExit(sink.exit) : ''})`)
    ctx.check(resumeS <= RESUME_LIMIT_S, `first progress ${Number.isFinite(resumeS) ? `${resumeS.toFixed(1)} s` : 'never'} after the broker was back (limit ${RESUME_LIMIT_S} s): producer ${progress.producer ?? 'none'}, consumer ${progress.consumer ?? 'none'}`)

    const { published } = await load.done.catch((err: Error) => { throw new Error(`publisher failed after the broker restart: ${err.message}`) })
    ctx.record.published = published
    const topic = entityTopic(rt.cfg, SYNTHETIC_RESOURCE)
    await withAdmin(rt, (admin) => waitDrained(() => groupLag(admin, groupId(rt.cfg, PROCESSORS.tableSink), [topic]), 'the sink to commit every event', { stallMs: 120_000, maxMs: 30 * 60_000, intervalMs: 250 }))
    const tally = await syntheticTally(rt, keys, versions)
    Object.assign(ctx.record, { rows: tally.rows, lost: tally.lost, duplicated: tally.duplicated })
    ctx.record.details.tally = tally.detail
    ctx.record.details.finalNotLatest = await finalNotLatest(rt, table, 'id')
    ctx.record.details.sinkLog = logFacts(sink)
    ctx.check(published === total, `published ${published} of ${total}`)
    const stop = await stopRole(sink, 'SIGTERM')
    ctx.check(stop.code === 0 && !stop.forced, `the sink did not stop cleanly on SIGTERM (${describeExit(stop)})`)
    return `broker back in ${((backAt - killedAt) / 1000).toFixed(1)} s; producer resumed after ${progress.producer?.toFixed(1)} s, consumer after ${progress.consumer?.toFixed(1)} s (≤ ${RESUME_LIMIT_S} s)`
  },
}
