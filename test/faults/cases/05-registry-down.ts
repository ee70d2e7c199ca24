/**
 * Case 5: the schema registry is down when a connector starts (`lds ingest sample` as a child).
 * The connector must fail (exit code ≠ 0), say on stderr that the registry at its URL is the
 * problem, and publish nothing: the end offsets of every entity topic stay where they were.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { entityTopic } from '../../../schemas/events/index.js'
import type { FaultCase } from '../lib/case.js'
import { spawnLds, describeExit } from '../lib/role.js'
import { waitFor } from '../lib/wait.js'
import { endOffsets } from '../lib/kafka-facts.js'
import { withAdmin } from '../lib/admin.js'
import { stopRegistry, startRegistry } from '../lib/infra.js'
import { resourceTally } from '../lib/check.js'

/** The connector must give up within this; longer counts as a hang. */
const GIVE_UP_LIMIT_MS = 120_000

export const registryDown: FaultCase = {
  id: 5,
  title: 'Registry down when a connector starts',
  scope: 'infrastructure',
  async run(ctx) {
    const s = await ctx.stack('regdown')
    const { rt, env } = s
    const topics = rt.catalogue.stored.map((r) => entityTopic(rt.cfg, r))
    const before = await withAdmin(rt, (admin) => endOffsets(admin, topics))

    await stopRegistry(ctx.cfg, ctx.log)
    ctx.defer(() => startRegistry(ctx.cfg, ctx.log)) // also when the case fails half-way
    const stderrFile = path.join(ctx.logDir, 'ingest-sample.stderr.log')
    const t0 = Date.now()
    const ingest = spawnLds('ingest', ['ingest', 'sample', '--opinions', '200', '--seed', '3'], env, path.join(ctx.logDir, 'ingest-sample.log'), stderrFile)
    const exit = await waitFor(() => ingest.exit, 'the connector to give up', GIVE_UP_LIMIT_MS, 100).catch(() => undefined)
    const seconds = (Date.now() - t0) / 1000
    if (!exit) { ingest.kill('SIGKILL'); await ingest.exited }
    const stderr = readFileSync(stderrFile, 'utf8')
    const after = await withAdmin(rt, (admin) => endOffsets(admin, topics))
    const grown = topics.filter((t) => after.get(t) !== before.get(t)).map((t) => `${t} ${before.get(t)} → ${after.get(t)}`)
    const appended = topics.reduce((a, t) => a + ((after.get(t) ?? 0) - (before.get(t) ?? 0)), 0)
    const url = rt.cfg.schemaRegistryUrl
    const firstLines = stderr.split('\n').filter((l) => l.trim()).slice(0, 4)
    const stackTrace = /^\s+at .+\(.+:\d+:\d+\)$/m.test(stderr)
    const tables = await resourceTally(rt, new Map(rt.catalogue.stored.map((r) => [r.name, 0])))
    Object.assign(ctx.record, { published: appended, rows: tables.rows, lost: 0, duplicated: 0 })
    ctx.record.details = { exit: exit ? describeExit(exit) : `still running after ${GIVE_UP_LIMIT_MS / 1000} s (SIGKILLed)`, secondsToGiveUp: seconds, stderrFirstLines: firstLines, stackTraceOnStderr: stackTrace, endOffsetsChanged: grown, registryUrl: url }

    ctx.check(exit !== undefined, `the connector hung: no exit after ${GIVE_UP_LIMIT_MS / 1000} s with the registry down`)
    ctx.check(!exit || exit.code !== 0, `the connector exited 0 with the registry down`)
    ctx.check(/registry/i.test(stderr) && stderr.includes(url), `stderr does not name the registry and its URL ${url}: ${firstLines.join(' | ').slice(0, 300)}`)
    ctx.check(grown.length === 0, `half-published: end offsets moved on ${grown.join(', ')}`)
    const line = stderr.split('\n').find((l) => l.includes(url))?.trim() ?? ''
    return `${exit ? describeExit(exit) : 'hung'} after ${seconds.toFixed(1)} s, nothing published; stderr: "${line.slice(0, 160)}"${stackTrace ? ' (plus a stack trace)' : ''}`
  },
}
