/**
 * Case 4: ClickHouse is stopped for 60 s (15 s with --small) while events flow to the table sink
 * and the citation network. The processors must back off and stay up (no process exit, no consumer
 * crash or restart in their logs), their lag must grow during the outage, and once ClickHouse is
 * back they catch up with nothing lost or duplicated.
 */
import type { FaultCase } from '../lib/case.js'
import { syntheticLoad, sampleLoad, CASE_LAW, SYNTHETIC_RESOURCE } from '../lib/load.js'
import { rawCount, syntheticTally, resourceTally, addTallies } from '../lib/check.js'
import { waitRunning, stopRole, describeExit, logFacts, type RoleProcess } from '../lib/role.js'
import { waitFor, sleep } from '../lib/wait.js'
import { pipelineLag, waitPipelineQuiet } from '../lib/network.js'
import { checkNetworkState } from '../lib/network-checks.js'
import { stopClickHouse, startClickHouse } from '../lib/infra.js'
import { CITATION_STATE } from '../../../schemas/internal/citation-network.js'
import { SAMPLE_SEED } from './02-network-sigkill.js'

export const clickhouseOutage: FaultCase = {
  id: 4,
  title: 'ClickHouse stopped under load, then back',
  scope: 'infrastructure',
  async run(ctx) {
    const outageMs = ctx.small ? 15_000 : 60_000
    const keys = ctx.small ? 10_000 : 50_000
    const opinions = ctx.small ? 500 : 3_000
    const s = await ctx.stack('chdown', { LDS_SINK_FETCH_BYTES: String(256 * 1024) })
    const { rt, env } = s
    const table = rt.catalogue.get(SYNTHETIC_RESOURCE).table
    const sink = ctx.role('table-sink', 'table-sink', env)
    const net = ctx.role('citation-network', 'citation-network', env)
    await Promise.all([waitRunning(sink), waitRunning(net)])

    // Both loads last about warm-up + outage + a little, so events arrive all through the outage.
    const spanS = (outageMs + 10_000) / 1000
    const load = syntheticLoad(rt, keys, 2, { signal: ctx.signal, ratePerSec: Math.ceil((keys * 2) / spanS), chunk: 500 })
    const cases = sampleLoad(rt, SAMPLE_SEED, opinions, { signal: ctx.signal, resources: CASE_LAW, ratePerSec: Math.ceil((opinions * 3.7) / spanS), chunk: 100 })
    await waitFor(async () => { load.ensureAlive(); cases.ensureAlive(); return (await rawCount(rt, table)) > 0 && (await rawCount(rt, CITATION_STATE)) > 0 }, 'both processors applying events', 120_000, 100)

    await stopClickHouse(ctx.cfg, ctx.log)
    const downAt = Date.now()
    const lagSamples: { s: number; sink: number; net: number }[] = []
    // Hold the outage for its stated duration, reading the lag (from Kafka) and the processes meanwhile.
    while (Date.now() - downAt < outageMs) {
      lagSamples.push({ s: Math.round((Date.now() - downAt) / 100) / 10, ...await pipelineLag(rt) })
      await sleep(Math.min(2_000, outageMs - (Date.now() - downAt)))
    }
    const alive = { sink: sink.alive(), net: net.alive() }
    lagSamples.push({ s: Math.round((Date.now() - downAt) / 100) / 10, ...await pipelineLag(rt) })
    await startClickHouse(ctx.cfg, ctx.log)
    const upAt = Date.now()
    ctx.log(`ClickHouse down for ${((upAt - downAt) / 1000).toFixed(1)} s; lag ${JSON.stringify(lagSamples[0])} → ${JSON.stringify(lagSamples[lagSamples.length - 1])}`)

    const [a, b] = await Promise.all([load.done, cases.done])
    ctx.record.published = a.published + b.published
    await waitPipelineQuiet(rt, 180_000)
    const caughtUpS = (Date.now() - upAt) / 1000
    const tally = addTallies(await syntheticTally(rt, keys, 2), await resourceTally(rt, cases.byResource))
    const network = await checkNetworkState(ctx, rt)
    const lost = tally.lost + network.lost
    const duplicated = tally.duplicated + network.duplicated
    Object.assign(ctx.record, { rows: tally.rows, lost, duplicated })

    const facts = (p: RoleProcess) => ({ ...logFacts(p), processExits: p.alive() ? 0 : 1 })
    const logs = { sink: facts(sink), net: facts(net) }
    const first = lagSamples[0], last = lagSamples[lagSamples.length - 1]
    Object.assign(ctx.record.details, { outageS: (upAt - downAt) / 1000, lagSamples, caughtUpAfterS: caughtUpS, aliveAtEndOfOutage: alive, logs, synthetic: tally.detail })
    for (const [name, p] of [['table sink', sink], ['citation network', net]] as const) {
      const f = logs[name === 'table sink' ? 'sink' : 'net']
      ctx.check(p.alive(), `the ${name} process exited (${p.exit ? describeExit(p.exit) : ''})`)
      ctx.check(f.consumerCrashes === 0 && f.consumerRestarts === 0 && f.streamStarts === 1,
        `the ${name} crash-looped: ${f.consumerCrashes} consumer crashes, ${f.consumerRestarts} restarts, ${f.streamStarts} stream starts in ${p.logFile}`)
    }
    ctx.check(last.sink > first.sink || last.net > first.net, `lag did not grow during the outage (${JSON.stringify(first)} → ${JSON.stringify(last)})`)
    for (const p of [sink, net]) {
      const stop = await stopRole(p, 'SIGTERM')
      ctx.check(stop.code === 0 && !stop.forced, `${p.label} did not stop cleanly on SIGTERM (${describeExit(stop)})`)
    }
    return `down ${((upAt - downAt) / 1000).toFixed(0)} s, lag ${first.sink + first.net} → ${last.sink + last.net}, no crash or restart (sink retries logged: ${logs.sink.sinkRetryWarnings + logs.net.sinkRetryWarnings}); caught up ${caughtUpS.toFixed(1)} s after`
  },
}
