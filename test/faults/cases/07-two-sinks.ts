/**
 * Case 7: two table-sink instances share one consumer group; one is SIGKILLed under load. Its
 * partitions must move to the survivor (once the group notices the dead member: its session
 * timeout), which applies everything: nothing lost, nothing duplicated.
 */
import { entityTopic, groupId, PROCESSORS } from '../../../schemas/events/index.js'
import type { FaultCase } from '../lib/case.js'
import { syntheticLoad, SYNTHETIC_RESOURCE } from '../lib/load.js'
import { rawCount, syntheticTally, finalNotLatest } from '../lib/check.js'
import { waitRunning, stopRole, describeExit, logFacts } from '../lib/role.js'
import { waitFor, waitDrained } from '../lib/wait.js'
import { groupLag, groupMembers } from '../lib/kafka-facts.js'
import { withAdmin } from '../lib/admin.js'

export const twoSinks: FaultCase = {
  id: 7,
  title: 'Two table sinks in one group, one SIGKILLed under load',
  scope: 'own-processes',
  async run(ctx) {
    const keys = ctx.small ? 10_000 : 100_000
    const s = await ctx.stack('twosinks', { LDS_SINK_FETCH_BYTES: String(256 * 1024) })
    const { rt, env } = s
    const table = rt.catalogue.get(SYNTHETIC_RESOURCE).table
    const group = groupId(rt.cfg, PROCESSORS.tableSink)
    const a = ctx.role('table-sink-a', 'table-sink', env)
    const b = ctx.role('table-sink-b', 'table-sink', env)
    await Promise.all([waitRunning(a), waitRunning(b)])
    const shared = await withAdmin(rt, (admin) => waitFor(async () => {
      const g = await groupMembers(admin, group)
      return g.state === 'Stable' && g.members.length === 2 && g.members.every((m) => m.partitions > 0) && g.members
    }, 'both sinks to hold partitions', 60_000, 250))
    // From the group itself: the children may run a newer catalogue (more topics) than this process loaded.
    const partitions = shared.reduce((a, m) => a + m.partitions, 0)
    ctx.log(`group ${group}: ${shared.map((m) => m.partitions).join(' + ')} partitions`)

    const load = syntheticLoad(rt, keys, 2, { signal: ctx.signal, ratePerSec: ctx.small ? 2_000 : 5_000, chunk: 1000 })
    await waitFor(async () => { load.ensureAlive(); return (await rawCount(rt, table)) >= load.total / 4 }, 'a quarter of the events applied', 120_000, 50)
    a.kill('SIGKILL')
    await a.exited
    const killedAt = Date.now()
    ctx.log(`sink a SIGKILLed at ${await rawCount(rt, table)} rows written, ${load.published()} published`)
    const moved = await withAdmin(rt, (admin) => waitFor(async () => {
      const g = await groupMembers(admin, group)
      return g.state === 'Stable' && g.members.length === 1 && g.members[0].partitions === partitions && g.members[0]
    }, `all ${partitions} partitions to move to sink b`, 120_000, 250))
    const movedS = (Date.now() - killedAt) / 1000
    ctx.log(`all ${moved.partitions} partitions on the survivor ${movedS.toFixed(1)} s after the kill`)

    const { published } = await load.done
    ctx.record.published = published
    await withAdmin(rt, (admin) => waitDrained(() => groupLag(admin, group, [entityTopic(rt.cfg, SYNTHETIC_RESOURCE)]), 'sink b to commit every event', { stallMs: 120_000, maxMs: 30 * 60_000, intervalMs: 250 }))
    const tally = await syntheticTally(rt, keys, 2)
    Object.assign(ctx.record, { rows: tally.rows, lost: tally.lost, duplicated: tally.duplicated })
    ctx.record.details = { partitions, before: shared.map((m) => m.partitions), movedAfterS: movedS, survivor: moved, tally: tally.detail, finalNotLatest: await finalNotLatest(rt, table, 'id'), survivorLog: logFacts(b) }
    ctx.check(b.alive(), `sink b exited (${b.exit ? describeExit(b.exit) : ''})`)
    ctx.check(logFacts(b).streamStarts === 1, 'sink b restarted its stream')
    const stop = await stopRole(b, 'SIGTERM')
    ctx.check(stop.code === 0 && !stop.forced, `sink b did not stop cleanly on SIGTERM (${describeExit(stop)})`)
    return `partitions ${shared.map((m) => m.partitions).join('+')} → all ${partitions} on the survivor ${movedS.toFixed(1)} s after the kill (session timeout); ${tally.rows} keys at their last version`
  },
}
