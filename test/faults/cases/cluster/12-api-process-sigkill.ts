/**
 * Case 12 (--cluster): one of the two API processes behind the cluster's port is SIGKILLed under
 * a 64-connection load. The launcher (infra/cluster/api-workers.ts, Node's cluster module) hands
 * new connections to the surviving worker and starts another; the requests the killed worker held
 * fail. Fewer than 1 % of all requests may fail, and none sent later than 5 s after the kill (a
 * request that timed out is placed at the time it was sent: a connection the launcher handed to
 * the dying worker hangs until the client's timeout).
 */
import { execFileSync } from 'node:child_process'
import type { EventEmitter } from 'node:events'
import path from 'node:path'
import autocannon from 'autocannon'
import { sql, ident } from '../../../../core/sql.js'
import type { FaultCase } from '../../lib/case.js'
import { sampleLoad } from '../../lib/load.js'
import { resourceTally } from '../../lib/check.js'
import { logEntries, spawnScript, waitRunning } from '../../lib/role.js'
import { sleep, waitFor } from '../../lib/wait.js'
import { createUser } from '../../../../bin/users.js'

const CONNECTIONS = 64
const FAILED_SHARE_LIMIT = 0.01
const QUIET_AFTER_MS = 5_000
/** A request without an answer after this long counts as failed (autocannon's timeout). */
const TIMEOUT_S = 10

/** Pids of the launcher's worker processes. */
function workerPids(primary: number): number[] {
  try { return execFileSync('pgrep', ['-P', String(primary)], { encoding: 'utf8' }).split('\n').filter(Boolean).map(Number) } catch { return [] }
}

export const clusterApiSigkill: FaultCase = {
  id: 12,
  title: 'One API process of two SIGKILLed under 64-connection load (cluster)',
  scope: 'own-processes',
  async run(ctx) {
    const s = await ctx.stack('api')
    const sink = ctx.role('table-sink', 'table-sink', s.env)
    await waitRunning(sink, 180_000)
    // Court details: the same cheap read every time; a token with no practical throttle (the anonymous limit is 1,000 an hour).
    const { token } = await createUser(s.rt, 'fault-load', { rate: '100000000/hour' })
    const headers = { authorization: `Token ${token}` }
    const load = sampleLoad(s.rt, 1, 0, { signal: ctx.signal, resources: new Set(['courts']) })
    await load.done
    await waitFor(async () => (await resourceTally(s.rt, load.byResource)).rows === load.total, 'the courts in ClickHouse', 120_000)
    const ids = (await s.rt.db.query<{ id: string }>(sql`SELECT id FROM ${ident(s.rt.cfg.clickhouseDatabase)}.${ident(s.rt.catalogue.get('courts').table)} FINAL ORDER BY id LIMIT 50`)).map((r) => r.id)

    const logFile = path.join(ctx.logDir, 'api-workers.log')
    const api = spawnScript('api-workers', 'infra/cluster/api-workers.ts', ['2'], s.env, logFile)
    ctx.defer(async () => { if (api.alive()) { api.kill('SIGTERM'); await Promise.race([api.exited, sleep(25_000)]); api.kill('SIGKILL') } })
    const origin = `http://127.0.0.1:${s.env.PORT}`
    // Both workers running (each logs "running" with its pid), and the courts answered.
    await waitFor(() => new Set(logEntries(api).filter((e) => e.msg === 'running').map((e) => e.pid)).size >= 2, 'both API workers running', 180_000, 250)
    await waitFor(async () => (await fetch(`${origin}/api/rest/v4/courts/${ids[0]}/`, { headers })).status === 200, 'a court detail answered with the token', 60_000, 250)

    const seconds = ctx.small ? 20 : 40
    const killAfterMs = 5_000
    let n = 0
    let killedAt = Infinity
    const failures: number[] = []
    let requests = 0
    const instance = autocannon({
      url: `${origin}/api/rest/v4/courts/${ids[0]}/`, connections: CONNECTIONS, pipelining: 1, duration: seconds, timeout: TIMEOUT_S, headers,
      requests: [{ setupRequest: (req) => ({ ...req, path: `/api/rest/v4/courts/${ids[n++ % ids.length]}/` }) }],
    }) as unknown as EventEmitter & PromiseLike<autocannon.Result>
    const statuses: Record<string, number> = {}
    instance.on('response', (_c: unknown, status: number) => { requests++; if (status !== 200) { failures.push(Date.now()); statuses[status] = (statuses[status] ?? 0) + 1 } })
    instance.on('reqError', (err: Error) => {
      requests++
      const timedOut = /timed out/.test(err.message)
      failures.push(Date.now() - (timedOut ? TIMEOUT_S * 1000 : 0))
      const kind = timedOut ? 'timeout' : 'error'
      statuses[kind] = (statuses[kind] ?? 0) + 1
    })
    const killer = (async () => {
      await sleep(killAfterMs)
      const pids = workerPids(api.pid)
      ctx.check(pids.length === 2, `the launcher runs ${pids.length} workers, not 2`)
      if (!pids.length) return
      killedAt = Date.now()
      process.kill(pids[0], 'SIGKILL')
      ctx.log(`API worker ${pids[0]} SIGKILLed under load`)
      return pids[0]
    })()
    const result = await instance
    const victim = await killer
    const failed = failures.length
    const late = failures.filter((t) => t > killedAt + QUIET_AFTER_MS).length
    // Sent a second or more before the kill: not the kill's doing (a detail takes milliseconds).
    const beforeKill = failures.filter((t) => t < killedAt - 1_000).length
    const share = requests ? failed / requests : 1
    const replaced = /starting another/.test(api.logText())
    ctx.record.details.load = { requests, failed, beforeKill, laterThan5s: late, lastFailureAfterKillMs: failed ? Math.max(...failures) - killedAt : null, rps: result.requests.average, victim, failedBy: statuses }
    ctx.check(Number.isFinite(killedAt), 'no worker was killed')
    ctx.check(share < FAILED_SHARE_LIMIT, `${failed} of ${requests} requests failed (${(share * 100).toFixed(2)} %, limit ${FAILED_SHARE_LIMIT * 100} %)`)
    ctx.check(late === 0, `${late} requests sent more than ${QUIET_AFTER_MS / 1000} s after the kill failed`)
    ctx.check(beforeKill === 0, `${beforeKill} requests sent before the kill failed`)
    ctx.check(replaced, 'the launcher did not start a worker in place of the killed one')
    ctx.check(api.alive(), 'the API launcher exited')
    return `${failed} of ${requests} requests failed (${(share * 100).toFixed(2)} %), the last ${failed ? ((Math.max(...failures) - killedAt) / 1000).toFixed(1) : '-'} s after the kill; a new worker replaced the killed one`
  },
}
