/**
 * Case 11 (--cluster): one ClickHouse node is SIGKILLed under load and started again. Here the
 * shards have no replica (docs/decisions/cluster-clickhouse.md), so while the node is down the
 * sink's inserts into the Distributed table fail: the sink must hold its offsets and retry, not
 * exit nor skip, and once the node is back every row lands, FINAL counts exact. (With replicas, the
 * issue's case — inserts and lists continuing on the other replica — needs a ClickHouse server.)
 */
import { clickhouseNodes } from '../../../../infra/cluster/nodes.js'
import type { FaultCase } from '../../lib/case.js'
import { sleep } from '../../lib/wait.js'
import { clusterMain, killClickHouseNode, startClickHouse } from '../../lib/cluster.js'
import { CLUSTER_LIMITS, sinkUnderLoad, firstProgress, finishSinkUnderLoad } from '../../lib/sink-under-load.js'

const RESUME_LIMIT_S = 60

export const clusterClickHouseSigkill: FaultCase = {
  id: 11,
  title: 'One ClickHouse node (shard, no replica here) SIGKILLed under load (cluster)',
  scope: 'infrastructure',
  async run(ctx) {
    const main = clusterMain()
    const u = await sinkUnderLoad(ctx, 'chnode', { keys: ctx.small ? 10_000 : 100_000, ratePerSec: ctx.small ? 1_000 : 5_000, limits: CLUSTER_LIMITS })
    // The second shard: the suite itself reads through the first node.
    const victim = clickhouseNodes(main).at(-1)!
    await killClickHouseNode(victim, ctx.log)
    const downMs = ctx.small ? 10_000 : 30_000
    await sleep(downMs)
    ctx.check(u.sink.alive(), 'the table sink exited while a ClickHouse node was down')
    await startClickHouse(main, victim, ctx.log)
    const atBack = { published: u.load.published(), rows: await u.rows() }
    const progress = await firstProgress(u, atBack, 120_000)
    ctx.record.details.outage = { node: victim.name, downS: downMs / 1000, atBack, firstProgressAfterBackS: progress }
    ctx.check((progress.consumer ?? Infinity) <= RESUME_LIMIT_S, `the sink wrote nothing within ${RESUME_LIMIT_S} s of ${victim.name} being back`)
    await finishSinkUnderLoad(ctx, u)
    return `${victim.name} down ${downMs / 1000} s: the sink held and retried, wrote again ${progress.consumer?.toFixed(1)} s after it was back`
  },
}
