/**
 * Case 9 (--cluster): one broker of three is SIGKILLed under load and left down. With every topic
 * on 3 replicas and min.insync.replicas 2, the other two carry on: the producer and the sink must
 * make progress within 30 s of the kill, without being restarted. The broker is then started
 * again and must rejoin every in-sync replica set; nothing is lost or duplicated.
 */
import { kafkaNodes } from '../../../../infra/cluster/nodes.js'
import type { FaultCase } from '../../lib/case.js'
import { withAdmin } from '../../lib/admin.js'
import { waitFor } from '../../lib/wait.js'
import { clusterMain, killBroker, startBroker, underReplicated } from '../../lib/cluster.js'
import { CLUSTER_LIMITS, sinkUnderLoad, firstProgress, finishSinkUnderLoad } from '../../lib/sink-under-load.js'

const RESUME_LIMIT_S = 30
const REJOIN_LIMIT_MS = 240_000

export const clusterBrokerSigkill: FaultCase = {
  id: 9,
  title: 'One broker of three SIGKILLed under load (cluster)',
  scope: 'infrastructure',
  async run(ctx) {
    const main = clusterMain()
    const u = await sinkUnderLoad(ctx, 'broker', { keys: ctx.small ? 10_000 : 100_000, ratePerSec: ctx.small ? 1_000 : 5_000, limits: CLUSTER_LIMITS })
    // The broker leading most of the case's partitions: killing it moves leaderships.
    const leaders = await withAdmin(u.s.rt, async (a) => (await a.fetchTopicMetadata({ topics: [u.topic] })).topics[0].partitions.map((p) => p.leader))
    const victim = kafkaNodes(main).map((b) => ({ b, led: leaders.filter((l) => l === b.nodeId).length })).sort((x, y) => y.led - x.led)[0].b
    const atKill = { published: u.load.published(), rows: await u.rows() }
    const killedAt = Date.now()
    await killBroker(victim, ctx.log)
    // Past what the kill cannot have stopped: the flush in flight when it came (500 events) may
    // still be acknowledged, and the sink's backlog on the surviving leaders still applied. So:
    // two flushes more, and rows beyond everything published before the kill.
    const beyond = atKill.published + 1_000
    const progress = await firstProgress(u, { published: beyond, rows: beyond }, 120_000)
    const resumeS = Math.max(progress.producer ?? Infinity, progress.consumer ?? Infinity)
    ctx.record.details.outage = { broker: victim.name, partitionsLed: leaders.filter((l) => l === victim.nodeId).length, atKill, firstProgressAfterKillS: progress }
    ctx.check(resumeS <= RESUME_LIMIT_S, `first progress ${Number.isFinite(resumeS) ? `${resumeS.toFixed(1)} s` : 'never'} after ${victim.name} was killed (limit ${RESUME_LIMIT_S} s): producer ${progress.producer ?? 'none'}, sink ${progress.consumer ?? 'none'}`)

    const downS = (Date.now() - killedAt) / 1000
    await startBroker(victim, ctx.log)
    const t0 = Date.now()
    await withAdmin(u.s.rt, (a) => waitFor(async () => (await underReplicated(a, [u.topic])) === 0, `${victim.name} back in every in-sync replica set`, REJOIN_LIMIT_MS, 1_000))
    const rejoinS = (Date.now() - t0) / 1000
    ctx.record.details.rejoin = { downS, rejoinS }
    await finishSinkUnderLoad(ctx, u)
    return `${victim.name} (leader of ${leaders.filter((l) => l === victim.nodeId).length} of ${leaders.length} partitions) killed: producer resumed after ${progress.producer?.toFixed(1)} s, sink after ${progress.consumer?.toFixed(1)} s (≤ ${RESUME_LIMIT_S} s) with it down; in sync again ${rejoinS.toFixed(0)} s after its restart`
  },
}
