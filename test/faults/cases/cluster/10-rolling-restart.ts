/**
 * Case 10 (--cluster): a rolling restart of all three brokers under load, as an upgrade does it:
 * each broker in turn is stopped (SIGTERM: a controlled shutdown that hands its leaderships over),
 * started again, and given back every in-sync replica set before the next one goes. Producer and
 * sink are never restarted; nothing is lost or duplicated.
 */
import { kafkaNodes } from '../../../../infra/cluster/nodes.js'
import type { FaultCase } from '../../lib/case.js'
import { withAdmin } from '../../lib/admin.js'
import { waitFor } from '../../lib/wait.js'
import { clusterMain, startBroker, stopBroker, underReplicated } from '../../lib/cluster.js'
import { CLUSTER_LIMITS, sinkUnderLoad, finishSinkUnderLoad } from '../../lib/sink-under-load.js'

const REJOIN_LIMIT_MS = 240_000

export const clusterRollingRestart: FaultCase = {
  id: 10,
  title: 'Rolling restart of the three brokers under load (cluster)',
  scope: 'infrastructure',
  async run(ctx) {
    const main = clusterMain()
    // Slow enough that publishing lasts through the three restarts (about a minute each here).
    const u = await sinkUnderLoad(ctx, 'rolling', { keys: ctx.small ? 10_000 : 100_000, ratePerSec: ctx.small ? 250 : 1_000, limits: CLUSTER_LIMITS })
    const steps: { broker: string; stopS: number; startS: number; inSyncS: number; publishedBefore: number; rowsBefore: number }[] = []
    for (const b of kafkaNodes(main)) {
      const before = { publishedBefore: u.load.published(), rowsBefore: await u.rows() }
      let t = Date.now()
      await stopBroker(main, b, ctx.log)
      const stopS = (Date.now() - t) / 1000
      t = Date.now()
      await startBroker(b, ctx.log)
      const startS = (Date.now() - t) / 1000
      t = Date.now()
      await withAdmin(u.s.rt, (a) => waitFor(async () => (await underReplicated(a, [u.topic])) === 0, `${b.name} back in every in-sync replica set`, REJOIN_LIMIT_MS, 1_000))
      steps.push({ broker: b.name, stopS, startS, inSyncS: (Date.now() - t) / 1000, ...before })
      ctx.log(`${b.name}: restarted (stop ${stopS.toFixed(1)} s, start ${startS.toFixed(1)} s, in sync after ${((Date.now() - t) / 1000).toFixed(1)} s)`)
    }
    ctx.record.details.steps = steps
    const loadRanThrough = u.load.finished === undefined
    ctx.record.details.loadRanThroughAllRestarts = loadRanThrough
    ctx.check(steps.every((s, i) => i === 0 || s.publishedBefore > steps[i - 1].publishedBefore), `the producer made no progress across a restart: ${steps.map((s) => s.publishedBefore).join(', ')}`)
    await finishSinkUnderLoad(ctx, u)
    return `3 brokers restarted in turn (${steps.map((s) => `${s.broker} ${(s.stopS + s.startS + s.inSyncS).toFixed(0)} s`).join(', ')}); load ${loadRanThrough ? 'still publishing after the last' : 'finished before the last restart ended'}`
  },
}
