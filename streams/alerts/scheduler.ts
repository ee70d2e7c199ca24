/**
 * Periodic jobs, on the injected clock (so LDS_TIME_SCALE compresses a week into seconds):
 *  - weekly: docket alerts on terminated dockets idle for about 180 days are reported to their
 *    owners (OLD_DOCKET_ALERTS_REPORT, `old_alerts`: disabled next week unless re-upped) and those
 *    idle longer are disabled (alert_type 0, reported in `disabled_alerts`); the owner is mailed;
 *  - more jobs register with `every` (the search-alert digests).
 * Each run of a job for a period is recorded, so a restart or a second scheduler does not repeat it.
 */
import { sql, ident } from '../../core/sql.js'
import type { Clock } from '../../core/clock.js'
import { createVersioner } from '../../schemas/events/index.js'
import { SCHEDULER_RUNS } from '../../schemas/internal/alerts.js'
import { oldDocketAlertsPayload, docketAlertObject, EVENT_TYPES, DAY_MS } from '../../domain/webhooks/index.js'
import { weeklyDormancyRun, DORMANCY_JOB_PERIOD_DAYS } from '../../domain/alerts/dormancy.js'
import { openSourceContext, asShown, type SourceDeps, type SourceContext, type Row } from './context.js'

export const SCHEDULER = 'scheduler'

export interface Job { name: string; periodMs: number; run(now: number, ctx: SourceContext): Promise<void> }

export async function startScheduler(deps: SourceDeps, extra: Job[] = []) {
  const { db, clock } = deps
  const log = deps.log.child({ stream: SCHEDULER })
  const ctx = await openSourceContext(deps, SCHEDULER)
  const version = createVersioner()
  const table = (name: string) => sql`${ident(db.database)}.${ident(name)}`
  const controller = new AbortController()

  const dormancy: Job = {
    name: 'old-docket-alerts',
    periodMs: DORMANCY_JOB_PERIOD_DAYS * DAY_MS,
    async run(now) {
      const alerts = await db.query<Row>(sql`SELECT * EXCEPT (_version, _deleted) FROM ${table('docket_alerts')} FINAL WHERE alert_type = 1`)
      if (!alerts.length) return
      const dockets = new Map((await ctx.rowsWhere('dockets', 'id', [...new Set(alerts.map((a) => Number(a.docket_id)))])).map((d) => [Number(d.id), d]))
      const items = alerts.map((a) => ({ row: a, alert: { alert_type: Number(a.alert_type), date_modified: String(a.date_modified), date_last_hit: a.date_last_hit as string | null }, docket: { date_terminated: (dockets.get(Number(a.docket_id))?.date_terminated as string) || null, date_last_filing: (dockets.get(Number(a.docket_id))?.date_last_filing as string) || null } }))
      const run = weeklyDormancyRun(items, now, { scaled: clock.scaled })
      const iso = new Date(now).toISOString()
      for (const d of run.disabled_alerts) await deps.publisher.upsert('docket-alerts', { ...d.row, alert_type: 0, date_modified: iso })
      const users = new Set([...run.old_alerts, ...run.disabled_alerts].map((x) => Number(x.row.user_id)))
      const shown = (a: Row) => docketAlertObject(asShown({ ...a, docket: Number(a.docket_id) }))
      for (const userId of users) {
        const old = run.old_alerts.filter((x) => Number(x.row.user_id) === userId).map((x) => shown(x.row))
        const disabled = run.disabled_alerts.filter((x) => Number(x.row.user_id) === userId).map((x) => shown({ ...x.row, alert_type: 0, date_modified: iso }))
        await ctx.emitter.emit({ userId, eventType: EVENT_TYPES.OLD_DOCKET_ALERTS_REPORT.id, payload: () => oldDocketAlertsPayload({ old_alerts: old, disabled_alerts: disabled }) })
        const lines = [
          ...(old.length ? [`${old.length} of your docket alerts follow cases that ended long ago and will be turned off next week unless you keep them (PATCH alert_type=1):`, ...old.map((a) => `  docket ${String(a.docket)}`)] : []),
          ...(disabled.length ? [`${disabled.length} docket alerts were turned off:`, ...disabled.map((a) => `  docket ${String(a.docket)}`)] : []),
        ]
        await ctx.mail(userId, { subject: 'Your docket alerts on old cases', text: lines.join('\n') + '\n', html: `<pre>${lines.join('\n').replace(/&/g, '&amp;').replace(/</g, '&lt;')}</pre>` })
      }
      await deps.publisher.flush()
      log.info({ old: run.old_alerts.length, disabled: run.disabled_alerts.length, users: users.size }, 'old docket alerts reported')
    },
  }
  const jobs = [dormancy, ...extra]

  /** Runs a job once for the period `now` falls in, unless that period's run is recorded. */
  async function tick(job: Job, now: number): Promise<void> {
    const period = String(Math.floor(now / clock.scaled(job.periodMs)))
    const done = await db.query(sql`SELECT 1 FROM ${table(SCHEDULER_RUNS)} FINAL WHERE job = ${job.name} AND period = ${period}`)
    if (done.length) return
    await job.run(now, ctx)
    await db.insert(SCHEDULER_RUNS, [{ job: job.name, period, ran_at: new Date().toISOString(), _version: version(), _deleted: 0 }])
  }

  const loops = jobs.map((job) => everyPeriod(clock.scaled(job.periodMs), clock, controller.signal, (now) =>
    tick(job, now).catch((err) => log.warn({ job: job.name, err: (err as Error).message }, 'scheduled job failed; it runs again next period'))))
  log.info({ jobs: jobs.map((j) => j.name) }, 'scheduler started')
  return {
    async stop() { controller.abort(); await Promise.all(loops); await ctx.stop() },
  }
}

/**
 * Calls `tick` now, then at the start of every following period of `periodMs` (wall-clock ms)
 * until `signal` aborts, each time with a time inside the period it is for. A timer may fire a
 * millisecond before the clock reaches the start of the period it waited for: the tick is for that
 * period all the same (with the clock's reading it would find the previous period done, and the
 * wait computed after it would skip the whole period). It waits with the clock's `until`, which an
 * abort ends.
 */
export async function everyPeriod(periodMs: number, clock: Pick<Clock, 'now' | 'until'>, signal: AbortSignal, tick: (now: number) => Promise<void>): Promise<void> {
  let due = clock.now()
  while (!signal.aborted) {
    const now = Math.max(clock.now(), due)
    await tick(now)
    due = (Math.floor(now / periodMs) + 1) * periodMs
    // rejects on abort, which the loop's condition then sees
    await clock.until(due, signal).catch(() => {})
  }
}
