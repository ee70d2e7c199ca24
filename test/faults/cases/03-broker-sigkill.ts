/**
 * Case 3: the Kafka broker is SIGKILLed under load (the suite publishing, the table sink
 * consuming) and started again at once. Neither side is restarted: the producer and the consumer
 * must resume by themselves, the first progress of each within 30 s of the broker being back.
 */
import { describeExit } from '../lib/role.js'
import type { FaultCase } from '../lib/case.js'
import { killKafka, startKafka } from '../lib/infra.js'
import { sinkUnderLoad, firstProgress, finishSinkUnderLoad } from '../lib/sink-under-load.js'

/** Longest allowed time from the broker being back to the first progress of producer and consumer. */
const RESUME_LIMIT_S = 30

export const brokerSigkill: FaultCase = {
  id: 3,
  title: 'Kafka broker SIGKILLed and restarted under load',
  scope: 'infrastructure',
  async run(ctx) {
    // Paced so that publishing goes on before, during and after the outage.
    const u = await sinkUnderLoad(ctx, 'broker', { keys: ctx.small ? 10_000 : 100_000, ratePerSec: ctx.small ? 1_000 : 5_000, limits: { startMs: 90_000, fifthMs: 120_000, drainStallMs: 120_000 } })
    const { load, sink } = u

    const killedAt = Date.now()
    const before = { published: load.published(), rows: await u.rows() }
    await killKafka(ctx.cfg, ctx.log)
    await startKafka(ctx.cfg, ctx.log)
    const backAt = Date.now()
    const atBack = { published: load.published(), rows: await u.rows() }
    ctx.log(`broker back after ${((backAt - killedAt) / 1000).toFixed(1)} s; published ${atBack.published}, written ${atBack.rows}`)
    const gaveUp = () => load.finished && !load.finished.ok
      ? `the publisher gave up ${((load.finished.at - killedAt) / 1000).toFixed(1)} s after the broker was killed (broker back after ${((backAt - killedAt) / 1000).toFixed(1)} s): ${load.finished.error}`
      : undefined

    // First progress after the broker is back: the producer's acknowledged count and the sink's rows.
    const progress = await firstProgress(u, atBack, 120_000)
    ctx.record.details.outage = { brokerDownToBackS: (backAt - killedAt) / 1000, before, atBack, firstProgressAfterBackS: progress, sinkAlive: sink.alive() }
    const failure = gaveUp()
    if (failure) {
      ctx.record.published = load.published()
      throw new Error(failure)
    }
    const resumeS = Math.max(progress.producer ?? Infinity, progress.consumer ?? Infinity)
    ctx.check(sink.alive(), `the table sink exited during the broker outage (${sink.exit ? describeExit(sink.exit) : ''})`)
    ctx.check(resumeS <= RESUME_LIMIT_S, `first progress ${Number.isFinite(resumeS) ? `${resumeS.toFixed(1)} s` : 'never'} after the broker was back (limit ${RESUME_LIMIT_S} s): producer ${progress.producer ?? 'none'}, consumer ${progress.consumer ?? 'none'}`)

    await finishSinkUnderLoad(ctx, u)
    return `broker back in ${((backAt - killedAt) / 1000).toFixed(1)} s; producer resumed after ${progress.producer?.toFixed(1)} s, consumer after ${progress.consumer?.toFixed(1)} s (≤ ${RESUME_LIMIT_S} s)`
  },
}
