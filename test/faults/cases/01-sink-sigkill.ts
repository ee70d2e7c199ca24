/**
 * Case 1: the table sink is SIGKILLed while a load is flowing (published and consumed at once),
 * then started again. Every key must end at its latest version, once.
 */
import { entityTopic, groupId, PROCESSORS } from '../../../schemas/events/index.js'
import type { FaultCase } from '../lib/case.js'
import { syntheticLoad, SYNTHETIC_RESOURCE } from '../lib/load.js'
import { rawCount, syntheticTally, finalNotLatest, keepEveryInsert, redelivered } from '../lib/check.js'
import { waitRunning, stopRole, describeExit } from '../lib/role.js'
import { waitFor, waitDrained } from '../lib/wait.js'
import { groupLag } from '../lib/kafka-facts.js'
import { withAdmin } from '../lib/admin.js'

export const sinkSigkill: FaultCase = {
  id: 1,
  title: 'SIGKILL of the table sink under load, restarted',
  scope: 'own-processes',
  async run(ctx) {
    const keys = ctx.small ? 10_000 : 100_000
    const versions = 2
    const s = await ctx.stack('sink', { LDS_SINK_FETCH_BYTES: String(256 * 1024) })
    const { rt, env } = s
    const table = rt.catalogue.get(SYNTHETIC_RESOURCE).table
    const topic = entityTopic(rt.cfg, SYNTHETIC_RESOURCE)
    const group = groupId(rt.cfg, PROCESSORS.tableSink)
    await keepEveryInsert(rt, table)

    let sink = ctx.role('table-sink', 'table-sink', env)
    ctx.record.details.sinkStartMs = await waitRunning(sink)
    const load = syntheticLoad(rt, keys, versions, { signal: ctx.signal, ratePerSec: ctx.small ? 4_000 : 8_000 })
    const total = load.total

    // Kill once a third of the events have reached ClickHouse: batches before it are committed, one is in flight.
    const seen = await waitFor(async () => { load.ensureAlive(); const n = await rawCount(rt, table); return n >= total / 3 && n }, 'a third of the events in ClickHouse', 180_000, 50)
    sink.kill('SIGKILL')
    const exit = await sink.exited
    const atKill = await rawCount(rt, table)
    ctx.record.details.killed = { rowsWrittenAtKill: atKill, firstSeen: seen, publishedAtKill: load.published(), exit: describeExit(exit) }
    ctx.log(`sink SIGKILLed with ${atKill} of ${total} events written, ${load.published()} published`)
    ctx.check(exit.signal === 'SIGKILL', `the sink was not killed by SIGKILL (${describeExit(exit)})`)
    ctx.check(atKill < total, `the kill came too late: all ${total} events were already written`)

    sink = ctx.role('table-sink', 'table-sink', env)
    ctx.record.details.restartMs = await waitRunning(sink)
    const { published } = await load.done
    ctx.record.published = published
    await withAdmin(rt, (admin) => waitDrained(() => groupLag(admin, group, [topic]), 'the restarted sink to commit every event', { stallMs: 120_000, maxMs: 30 * 60_000, intervalMs: 250 }))

    const tally = await syntheticTally(rt, keys, versions)
    Object.assign(ctx.record, { rows: tally.rows, lost: tally.lost, duplicated: tally.duplicated })
    ctx.record.details.tally = tally.detail
    const reapplied = await redelivered(rt, table)
    ctx.record.details.reappliedAfterKill = reapplied
    const notLatest = await finalNotLatest(rt, table, 'id')
    ctx.record.details.finalNotLatest = notLatest
    ctx.check(notLatest === 0, `${notLatest} keys where FINAL does not show the highest version written`)
    ctx.check(published === total, `published ${published} of ${total}`)
    const stop = await stopRole(sink, 'SIGTERM')
    ctx.check(stop.code === 0 && !stop.forced, `the restarted sink did not stop cleanly on SIGTERM (${describeExit(stop)}${stop.forced ? ', SIGKILLed after 30 s' : ''})`)
    return `killed with ${atKill}/${total} written; after restart ${tally.rows} keys, each at its last version (${reapplied} events applied twice, harmless)`
  },
}
