/**
 * Case 2: the citation network is SIGKILLed while the sample corpus flows in, and started again.
 * The same corpus (same seed) goes through an undisturbed pipeline in another prefix and database
 * at the same time; afterwards every opinion has its citation_state row and the opinions_cited
 * edges of both runs are the same set (same ids, ends, cluster, depth, status).
 */
import type { FaultCase, CaseContext } from '../lib/case.js'
import type { CaseStack } from '../lib/stack.js'
import { sampleLoad, type Load } from '../lib/load.js'
import { rawCount, resourceTally } from '../lib/check.js'
import { waitRunning, stopRole, describeExit, type RoleProcess } from '../lib/role.js'
import { waitFor } from '../lib/wait.js'
import { waitPipelineQuiet, edges, compareEdges, edgesNotAtLowestOpinion, explainOpinions, stuckWaiting } from '../lib/network.js'
import { checkNetworkState } from '../lib/network-checks.js'
import { CITATION_STATE } from '../../../schemas/internal/citation-network.js'

export const SAMPLE_SEED = 11

/** A table sink and a citation network for one stack, each in its own process. */
export async function startPipeline(ctx: CaseContext, s: CaseStack, tag: string): Promise<{ sink: RoleProcess; net: RoleProcess }> {
  const sink = ctx.role(`${tag}-table-sink`, 'table-sink', s.env)
  const net = ctx.role(`${tag}-citation-network`, 'citation-network', s.env)
  await Promise.all([waitRunning(sink), waitRunning(net)])
  return { sink, net }
}

/** The pipeline's results compared with a reference stack that ran the same corpus undisturbed. */
export async function networkVerdict(ctx: CaseContext, s: CaseStack, ref: CaseStack | undefined, load: Load): Promise<string> {
  const published = new Map([...load.byResource].filter(([r]) => r !== 'opinions-cited'))
  const tables = await resourceTally(s.rt, published)
  const net = await checkNetworkState(ctx, s.rt)
  ctx.record.details.tables = tables.byTable
  let lost = tables.lost + net.lost
  let duplicated = tables.duplicated + net.duplicated
  let summary = `${net.stateRows} opinions linked, ${net.edgeRows} edges`
  if (ref) {
    const diff = compareEdges(await edges(ref.rt), await edges(s.rt))
    const notLowest = { run: await edgesNotAtLowestOpinion(s.rt), undisturbed: await edgesNotAtLowestOpinion(ref.rt) }
    ctx.record.details.undisturbedStuckWaiting = await stuckWaiting(ref.rt)
    ctx.record.details.edgesVsUndisturbed = diff
    ctx.record.details.edgesNotAtLowestOpinionOfCluster = notLowest
    const citing = [...new Set([...diff.byCluster.missingExamples, ...diff.byCluster.extraExamples].map((k) => Number(k.split('>')[0])))]
    if (citing.length) ctx.record.details.differingOpinions = { run: await explainOpinions(s.rt, citing), undisturbed: await explainOpinions(ref.rt, citing) }
    // Lost and duplicated count what differs beyond the choice of the cited cluster's opinion;
    // the strict comparison is a check of its own, with that choice named when it is the cause.
    lost += diff.byCluster.missing
    duplicated += diff.byCluster.extra
    const strict = diff.missing === 0 && diff.extra === 0 && diff.different === 0
    const onlyTarget = diff.byCluster.missing === 0 && diff.byCluster.extra === 0 && diff.different === 0
    ctx.check(strict, onlyTarget
      ? `edges differ from the undisturbed run only in which opinion of a cited cluster they point at (${diff.missing} edges each way; nothing lost: equal by citing opinion and cited cluster); edges not at the lowest opinion of their cluster: ${notLowest.run.count} in this run, ${notLowest.undisturbed.count} in the undisturbed one (e.g. ${(notLowest.undisturbed.examples[0] ?? notLowest.run.examples[0])}): the network's choice depends on processing order`
      : `edges differ from the undisturbed run: ${diff.missing} missing, ${diff.extra} extra, ${diff.different} different (by citing opinion and cited cluster: ${diff.byCluster.missing} missing, ${diff.byCluster.extra} extra); e.g. ${diff.examples.slice(0, 2).join('; ')}`)
    summary += ` = the undisturbed run's ${diff.reference}`
  }
  Object.assign(ctx.record, { rows: net.edgeRows, lost, duplicated })
  return summary
}

export const networkSigkill: FaultCase = {
  id: 2,
  title: 'SIGKILL of the citation network under load, restarted',
  scope: 'own-processes',
  async run(ctx) {
    const opinions = ctx.small ? 600 : 5_000
    const rate = ctx.small ? 8_000 : 5_000
    const [s, ref] = await Promise.all([ctx.stack('net'), ctx.stack('ref')])
    const p = await startPipeline(ctx, s, 'run')
    const r = await startPipeline(ctx, ref, 'ref')
    const load = sampleLoad(s.rt, SAMPLE_SEED, opinions, { signal: ctx.signal, ratePerSec: rate })
    const refLoad = sampleLoad(ref.rt, SAMPLE_SEED, opinions, { signal: ctx.signal, ratePerSec: rate })
    ctx.record.details.sample = { seed: SAMPLE_SEED, opinions, records: load.total }

    const seen = await waitFor(async () => { load.ensureAlive(); refLoad.ensureAlive(); const n = await rawCount(s.rt, CITATION_STATE); return n >= opinions / 3 && n }, 'a third of the opinions linked', 300_000, 50)
    p.net.kill('SIGKILL')
    const exit = await p.net.exited
    const atKill = await rawCount(s.rt, CITATION_STATE)
    ctx.record.details.killed = { stateRowsAtKill: atKill, firstSeen: seen, publishedAtKill: load.published(), exit: describeExit(exit) }
    ctx.log(`citation network SIGKILLed with ${atKill} state rows written for ${opinions} opinions; ${load.published()} of ${load.total} records published`)
    ctx.check(atKill < opinions, `the kill came too late: all ${opinions} opinions were already linked`)

    const net = ctx.role('run-citation-network', 'citation-network', s.env)
    ctx.record.details.restartMs = await waitRunning(net)
    const [done] = await Promise.all([load.done, refLoad.done])
    ctx.record.published = done.published
    await Promise.all([waitPipelineQuiet(s.rt, 180_000), waitPipelineQuiet(ref.rt, 180_000)])
    const summary = await networkVerdict(ctx, s, ref, load)
    for (const role of [net, p.sink, r.sink, r.net]) {
      const stop = await stopRole(role, 'SIGTERM')
      ctx.check(stop.code === 0 && !stop.forced, `${role.label} did not stop cleanly on SIGTERM (${describeExit(stop)})`)
    }
    return `killed at ${atKill}/${opinions} opinions linked; after restart ${summary}`
  },
}
