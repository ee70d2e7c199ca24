/**
 * Case 6: the API while ClickHouse is down. A list and a detail request (courts: open, no token)
 * must each answer 503 with a JSON {"detail": ...} body within a few seconds (never hang, never a
 * 500, no stack trace or SQL in the body), and answer 200 again once ClickHouse is back.
 *
 * A detail is a point read, which DESIGN.md says never costs a ClickHouse query (the API's read
 * model answers it from the topics). So a detail may also answer 200 with the right object while
 * ClickHouse is down; that is reported as such. Anything else (a 500, a hang, a wrong body) fails.
 *
 * List answers may come from the API's list cache (valid while the table sink has applied nothing
 * newer), which needs no ClickHouse: the list probed is one never asked before (a fresh `id`
 * filter each time), so it must reach ClickHouse. The plain list asked before the outage is asked
 * again during it too, and what it answered is reported (a cached 200 is by design).
 */
import type { FaultCase } from '../lib/case.js'
import { sampleLoad } from '../lib/load.js'
import { finalCount } from '../lib/check.js'
import { waitRunning, stopRole, describeExit } from '../lib/role.js'
import { waitFor } from '../lib/wait.js'
import { stopClickHouse, startClickHouse } from '../lib/infra.js'

/** "A few seconds": the most an answer may take while ClickHouse is down. */
const ANSWER_LIMIT_MS = 5_000
/** A request still open after this is a hang. */
const HANG_MS = 30_000
const LEAK = /\bat .+:\d+:\d+|SELECT |FROM `|Error:|ECONNREFUSED|stack/i

interface Answer { status: number; ms: number; body: string; json?: unknown; contentType: string; retryAfter: string | null; error?: string }

async function get(url: string): Promise<Answer> {
  const t0 = Date.now()
  try {
    const res = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(HANG_MS) })
    const body = await res.text()
    let json: unknown
    try { json = JSON.parse(body) } catch { /* not JSON: reported */ }
    return { status: res.status, ms: Date.now() - t0, body: body.slice(0, 400), json, contentType: res.headers.get('content-type') ?? '', retryAfter: res.headers.get('retry-after') }
  } catch (err) {
    return { status: 0, ms: Date.now() - t0, body: '', contentType: '', retryAfter: null, error: (err as Error).name === 'TimeoutError' ? `no answer within ${HANG_MS / 1000} s (hang)` : (err as Error).message }
  }
}

export const apiClickhouseDown: FaultCase = {
  id: 6,
  title: 'API while ClickHouse is down',
  scope: 'infrastructure',
  async run(ctx) {
    const s = await ctx.stack('api')
    const { rt, env } = s
    const api = ctx.role('api', 'api,table-sink', env)
    await waitRunning(api)
    const load = sampleLoad(rt, 1, 0, { signal: ctx.signal, resources: new Set(['courts']) })
    const { published } = await load.done
    ctx.record.published = published
    const courts = load.byResource.get('courts')!
    await waitFor(async () => (await finalCount(rt, 'courts')) === courts, 'every court in ClickHouse', 60_000, 200)
    const base = `http://127.0.0.1:${rt.cfg.port}/api/rest/v4/courts/`
    let probe = 0
    // A list no one asked before (so not in the list cache): an id filter with a fresh value.
    const urls = { get list() { return `${base}?id=fault-probe-${++probe}` }, detail: `${base}scotus/` }
    const before = { list: await get(urls.list), detail: await get(urls.detail), plainList: await get(base) }
    ctx.check(before.list.status === 200 && before.detail.status === 200, `before the outage: list ${before.list.status}, detail ${before.detail.status}`)

    await stopClickHouse(ctx.cfg, ctx.log)
    ctx.defer(() => startClickHouse(ctx.cfg, ctx.log)) // also when the case fails half-way
    const during: Record<string, Answer[]> = { list: [], detail: [] }
    for (let i = 0; i < 2; i++) {
      during.list.push(await get(urls.list))
      during.detail.push(await get(urls.detail))
    }
    const plainListDuring = await get(base)
    const fromReadModel = during.detail.every((a) => a.status === 200 && (a.json as { id?: unknown } | undefined)?.id === 'scotus')
    for (const [name, answers] of Object.entries(during)) {
      if (name === 'detail' && fromReadModel) {
        for (const a of answers) ctx.check(a.ms <= ANSWER_LIMIT_MS, `detail took ${a.ms} ms to answer while ClickHouse was down (limit ${ANSWER_LIMIT_MS} ms)`)
        continue
      }
      for (const a of answers) {
        const detail = (a.json as { detail?: unknown } | undefined)?.detail
        ctx.check(a.status === 503, `${name} answered ${a.status || a.error} while ClickHouse was down (expected 503): ${a.body.slice(0, 120)}`)
        ctx.check(a.ms <= ANSWER_LIMIT_MS, `${name} took ${a.ms} ms to answer while ClickHouse was down (limit ${ANSWER_LIMIT_MS} ms)`)
        ctx.check(typeof detail === 'string' && /json/.test(a.contentType), `${name}: the 503 body is not JSON with a "detail" string: ${a.contentType} ${a.body.slice(0, 120)}`)
        ctx.check(!LEAK.test(a.body), `${name}: the body leaks internals: ${a.body.slice(0, 160)}`)
      }
    }
    await startClickHouse(ctx.cfg, ctx.log)
    const upAt = Date.now()
    const after = await waitFor(async () => {
      const a = { list: await get(urls.list), detail: await get(urls.detail) }
      return a.list.status === 200 && a.detail.status === 200 && a
    }, 'list and detail to answer 200 again', 60_000, 250).catch((err: Error) => { ctx.check(false, err.message); return undefined })
    const backS = (Date.now() - upAt) / 1000
    const n = await finalCount(rt, 'courts')
    Object.assign(ctx.record, { rows: n, lost: Math.max(0, courts - n), duplicated: Math.max(0, n - courts) })
    const brief = (a: Answer) => ({ status: a.status, ms: a.ms, body: a.body.slice(0, 160), retryAfter: a.retryAfter, error: a.error })
    ctx.record.details = {
      urls: { list: `${base}?id=fault-probe-<n>`, detail: urls.detail }, before: { list: brief(before.list), detail: brief(before.detail), plainList: brief(before.plainList) },
      during: { ...Object.fromEntries(Object.entries(during).map(([k, v]) => [k, v.map(brief)])), plainListAskedBefore: brief(plainListDuring) },
      after: after ? { list: brief(after.list), detail: brief(after.detail), secondsAfterClickHouseBack: backS } : 'never 200 again',
    }
    const stop = await stopRole(api, 'SIGTERM')
    ctx.check(stop.code === 0 && !stop.forced, `the API did not stop cleanly on SIGTERM (${describeExit(stop)})`)
    const slowest = Math.max(...Object.values(during).flat().map((a) => a.ms))
    ctx.record.details.detailFromReadModel = fromReadModel
    return `503 {"detail"} in ≤ ${slowest} ms for ${fromReadModel ? 'the list (the detail: 200 from the read model, no ClickHouse needed)' : 'list and detail'} while down (the list asked before the outage: ${plainListDuring.status}${plainListDuring.status === 200 ? ', from the list cache' : ''}); 200 again ${backS.toFixed(1)} s after ClickHouse was back`
  },
}
