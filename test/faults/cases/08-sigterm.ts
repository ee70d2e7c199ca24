/**
 * Case 8: SIGTERM of the table sink, then of the citation network, each in the middle of a load.
 * Each must exit 0 within 30 s (graceful: the batch in flight is finished and committed), is
 * started again, and at the end nothing is lost or duplicated: the synthetic keys at their last
 * version, every case-law record once, every opinion with its citation_state at its current
 * version, and the edges exactly those the states list.
 */
import type { FaultCase, CaseContext } from '../lib/case.js'
import type { CaseStack } from '../lib/stack.js'
import { syntheticLoad, sampleLoad, CASE_LAW, SYNTHETIC_RESOURCE } from '../lib/load.js'
import { rawCount, syntheticTally, resourceTally, addTallies, keepEveryInsert, redelivered, partNames, duplicatesAround } from '../lib/check.js'
import { waitRunning, stopRole, describeExit, logEntries, type RoleProcess } from '../lib/role.js'
import { waitFor } from '../lib/wait.js'
import { waitPipelineQuiet, pipelineLag } from '../lib/network.js'
import { checkNetworkState } from '../lib/network-checks.js'
import { CITATION_STATE } from '../../../schemas/internal/citation-network.js'
import { SAMPLE_SEED } from './02-network-sigkill.js'

const GRACE_MS = 30_000

/** SIGTERM, the exit it got, and whether the stream logged its orderly stop. */
async function terminate(ctx: CaseContext, s: CaseStack, p: RoleProcess, which: 'sink' | 'net') {
  const lagBefore = (await pipelineLag(s.rt))[which]
  const stop = await stopRole(p, 'SIGTERM', GRACE_MS)
  const lagAfter = (await pipelineLag(s.rt))[which]
  const stoppedCleanly = logEntries(p).some((e) => e.msg === 'stream stopped')
  ctx.log(`${p.label}: SIGTERM → ${describeExit(stop)} in ${stop.ms} ms${stop.forced ? ' (SIGKILLed after 30 s)' : ''}; lag ${lagBefore} → ${lagAfter}`)
  ctx.check(stop.code === 0 && !stop.forced && stop.ms <= GRACE_MS, `${p.label} on SIGTERM: ${describeExit(stop)} after ${(stop.ms / 1000).toFixed(1)} s${stop.forced ? ' (did not exit in 30 s; SIGKILLed)' : ''}`)
  ctx.check(stoppedCleanly, `${p.label} did not log "stream stopped" (no orderly stop)`)
  return { exit: describeExit(stop), ms: stop.ms, streamStoppedLogged: stoppedCleanly, lagBefore, lagAfter }
}

export const sigterm: FaultCase = {
  id: 8,
  title: 'SIGTERM of the table sink and of the citation network mid-load, restarted',
  scope: 'own-processes',
  async run(ctx) {
    const keys = ctx.small ? 10_000 : 100_000
    const opinions = ctx.small ? 600 : 5_000
    const s = await ctx.stack('sigterm', { LDS_SINK_FETCH_BYTES: String(256 * 1024) })
    const { rt, env } = s
    const table = rt.catalogue.get(SYNTHETIC_RESOURCE).table
    await keepEveryInsert(rt, table)
    let sink = ctx.role('table-sink', 'table-sink', env)
    let net = ctx.role('citation-network', 'citation-network', env)
    await Promise.all([waitRunning(sink), waitRunning(net)])
    const spanS = ctx.small ? 15 : 45
    const load = syntheticLoad(rt, keys, 2, { signal: ctx.signal, ratePerSec: Math.ceil((keys * 2) / spanS), chunk: 500 })
    const cases = sampleLoad(rt, SAMPLE_SEED, opinions, { signal: ctx.signal, resources: CASE_LAW, ratePerSec: Math.ceil((opinions * 3.7) / spanS), chunk: 100 })

    await waitFor(async () => { load.ensureAlive(); return (await rawCount(rt, table)) >= load.total / 4 }, 'a quarter of the synthetic events applied', 120_000, 50)
    const sinkStop = await terminate(ctx, s, sink, 'sink')
    // what the stopped sink wrote: tells, if an event is applied twice, which sink wrote it twice
    const partsAtStop = await partNames(rt, table)
    sink = ctx.role('table-sink', 'table-sink', env)
    const sinkRestartMs = await waitRunning(sink)

    await waitFor(async () => { cases.ensureAlive(); return (await rawCount(rt, CITATION_STATE)) >= opinions / 3 }, 'a third of the opinions linked', 180_000, 50)
    const netStop = await terminate(ctx, s, net, 'net')
    net = ctx.role('citation-network', 'citation-network', env)
    const netRestartMs = await waitRunning(net)

    const [a, b] = await Promise.all([load.done, cases.done])
    ctx.record.published = a.published + b.published
    await waitPipelineQuiet(rt, 180_000)
    const tally = addTallies(await syntheticTally(rt, keys, 2), await resourceTally(rt, cases.byResource))
    const network = await checkNetworkState(ctx, rt)
    Object.assign(ctx.record, { rows: tally.rows, lost: tally.lost + network.lost, duplicated: tally.duplicated + network.duplicated })
    // A graceful stop commits what it applied, so the restarted sink applies no event a second time.
    const reapplied = await redelivered(rt, table)
    const where = reapplied ? await duplicatesAround(rt, table, partsAtStop) : undefined
    ctx.check(reapplied === 0, `${reapplied} synthetic events applied twice${where ? ` (copies written both by the stopped sink: ${where.bothBefore}; by it and again after the restart, written but not committed: ${where.acrossIt}; both after the restart: ${where.bothAfter}; e.g. ${where.examples.join('; ')})` : ''}`)
    Object.assign(ctx.record.details, { sink: { ...sinkStop, restartMs: sinkRestartMs, eventsAppliedTwice: reapplied, ...(where ? { duplicates: where } : {}) }, net: { ...netStop, restartMs: netRestartMs }, synthetic: tally.detail })
    for (const p of [sink, net]) {
      const stop = await stopRole(p, 'SIGTERM')
      ctx.check(stop.code === 0 && !stop.forced, `${p.label} did not stop cleanly on SIGTERM (${describeExit(stop)})`)
    }
    return `sink exited 0 in ${(sinkStop.ms / 1000).toFixed(1)} s, network in ${(netStop.ms / 1000).toFixed(1)} s; restarted in ${(sinkRestartMs / 1000).toFixed(1)} / ${(netRestartMs / 1000).toFixed(1)} s; ${network.stateRows} opinions, ${network.edgeRows} edges consistent`
  },
}
