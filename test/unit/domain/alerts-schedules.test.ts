import t from 'tap'
import {
  nextDigestAt, isDigestDue, dueDigests, DIGEST_PERIODS_MS,
  idleDays, classifyDormancy, weeklyDormancyRun, dormancyBands, DEFAULT_BANDS, DORMANCY_DAYS, lastActivity,
  disablementDueAt, applyDocketAlertTransition, toMs,
  checkNewPrayer, grantPrayer, prayersToGrant, ALLOWED_PRAYER_COUNT, PRAYER_STATUS,
  type DormancyInput,
} from '../../../domain/alerts/index.js'
import { systemClock } from '../../../core/clock.js'

const DAY = 86_400_000
const T0 = Date.UTC(2025, 0, 1)

t.test('digests: one period after the last one (or creation)', async (t) => {
  t.same(Object.fromEntries(Object.entries(DIGEST_PERIODS_MS).map(([k, v]) => [k, v && v / DAY])), { rt: null, dly: 1, wly: 7, mly: 30, off: null })
  t.equal(nextDigestAt({ rate: 'dly', createdAt: T0, lastSentAt: null }), T0 + DAY)
  t.equal(nextDigestAt({ rate: 'wly', createdAt: T0, lastSentAt: T0 + 3 * DAY }), T0 + 10 * DAY)
  t.equal(nextDigestAt({ rate: 'rt', createdAt: T0, lastSentAt: null }), null)
  t.equal(nextDigestAt({ rate: 'off', createdAt: T0, lastSentAt: null }), null)
  t.notOk(isDigestDue({ rate: 'mly', createdAt: T0, lastSentAt: null }, T0 + 29 * DAY))
  t.ok(isDigestDue({ rate: 'mly', createdAt: T0, lastSentAt: null }, T0 + 30 * DAY))
  const clock = systemClock(1000)
  t.equal(nextDigestAt({ rate: 'dly', createdAt: T0, lastSentAt: null }, { scaled: clock.scaled }), T0 + 86_400, 'a day lasts 86.4 s at scale 1000')
  const alerts = [
    { id: 1, rate: 'wly' as const, createdAt: T0, lastSentAt: null },
    { id: 2, rate: 'dly' as const, createdAt: T0, lastSentAt: T0 + 1 * DAY },
    { id: 3, rate: 'dly' as const, createdAt: T0, lastSentAt: null },
    { id: 4, rate: 'rt' as const, createdAt: T0, lastSentAt: null },
  ]
  t.same(dueDigests(alerts, T0 + 7 * DAY).map((a) => a.id), [3, 2, 1], 'earliest due first')
  t.same(dueDigests(alerts, T0 + DAY).map((a) => a.id), [3])
})

const item = (idle: number, over: { terminated?: boolean; alert_type?: number } = {}): DormancyInput & { id: number } => ({
  id: idle,
  alert: { alert_type: over.alert_type ?? 1, date_modified: T0 - 400 * DAY, date_last_hit: null },
  docket: { date_terminated: over.terminated === false ? null : new Date(T0 - idle * DAY).toISOString().slice(0, 10), date_last_filing: null },
})

t.test('dormancy bands: the facts’ bands for the spec’s 180 days', async (t) => {
  t.equal(DORMANCY_DAYS, 180)
  t.same(DEFAULT_BANDS, { warn: [90, 97], old: [180, 187], disableFrom: 187 })
  t.same(dormancyBands(100, 7), { warn: [50, 57], old: [100, 107], disableFrom: 107 })
  const bands = [0, 89, 90, 96, 97, 179, 180, 186, 187, 400].map((d) => [d, classifyDormancy(item(d), T0)])
  t.same(bands, [[0, 'active'], [89, 'active'], [90, 'warn'], [96, 'warn'], [97, 'active'], [179, 'active'], [180, 'old'], [186, 'old'], [187, 'disable'], [400, 'disable']])
  t.equal(classifyDormancy(item(400, { terminated: false }), T0), 'active', 'open cases never go dormant')
  t.equal(classifyDormancy(item(400, { alert_type: 0 }), T0), 'active', 'unsubscriptions are left alone')
})

t.test('idle time runs from the latest of four dates', async (t) => {
  const base: DormancyInput = {
    alert: { alert_type: 1, date_modified: '2024-01-10T12:00:00+00:00', date_last_hit: '2024-02-01T00:00:00Z' },
    docket: { date_terminated: '2023-12-01', date_last_filing: '2024-03-01' },
  }
  t.equal(lastActivity(base), Date.UTC(2024, 2, 1))
  t.equal(lastActivity({ ...base, alert: { ...base.alert, date_modified: '2024-04-01T00:00:00Z' } }), Date.UTC(2024, 3, 1))
  t.equal(idleDays(base, Date.UTC(2024, 2, 11, 5)), 10)
  t.equal(toMs('2024-03-01'), Date.UTC(2024, 2, 1))
  t.equal(toMs('garbage'), null)
})

t.test('the weekly job, a re-up, and the six-month postponement', async (t) => {
  const items = [item(10), item(93), item(183), item(190), item(500, { terminated: false })]
  const run = weeklyDormancyRun(items, T0)
  t.same({ warn: run.warn.map((i) => i.id), old: run.old_alerts.map((i) => i.id), disabled: run.disabled_alerts.map((i) => i.id) }, { warn: [93], old: [183], disabled: [190] })

  // one week later the old alert is disabled unless re-upped
  const old = item(183)
  t.equal(classifyDormancy(old, T0 + 7 * DAY), 'disable')
  const reUp = applyDocketAlertTransition(1, 're_up', T0 + 2 * DAY)
  const reUpped: DormancyInput = { ...old, alert: { ...old.alert, ...reUp } }
  t.equal(classifyDormancy(reUpped, T0 + 7 * DAY), 'active')
  t.equal(disablementDueAt(reUpped), T0 + 2 * DAY + 187 * DAY, 'postponed by about six months')
  t.equal(classifyDormancy(reUpped, T0 + 2 * DAY + 180 * DAY), 'old')

  const disabled = applyDocketAlertTransition(1, 'auto_disable', T0)
  t.same(disabled, { alert_type: 0, date_modified: T0 })
  t.same(applyDocketAlertTransition(0, 're_up', T0).alert_type, 1, 'a disabled alert can be re-enabled')
  t.throws(() => applyDocketAlertTransition(0, 'auto_disable', T0), /illegal docket alert transition/)

  const scaled = systemClock(86_400).scaled // a day lasts one second
  t.equal(classifyDormancy({ ...item(0), docket: { date_terminated: T0, date_last_filing: null } }, T0 + 187_000, { scaled }), 'disable')
})

t.test('prayers: one per document, five a day, then granted', async (t) => {
  const now = T0
  t.equal(checkNewPrayer(1, [], now), null)
  const dup = checkNewPrayer(1, [{ archive_document: 1, date_created: now - 10 * DAY }], now)
  t.same({ status: dup?.status, body: dup?.toBody() }, { status: 400, body: { non_field_errors: ['A prayer for this archive document already exists.'] } })
  const five = Array.from({ length: ALLOWED_PRAYER_COUNT }, (_, i) => ({ archive_document: 100 + i, date_created: now - i * 3_600_000 }))
  const sixth = checkNewPrayer(1, five, now)
  t.same(sixth?.toBody(), { non_field_errors: ['You have reached the maximum number of prayers (5) allowed in the last 24 hours.'] })
  t.equal(checkNewPrayer(1, five.slice(0, 4), now), null, 'the fifth is fine')
  t.equal(checkNewPrayer(1, five.map((p) => ({ ...p, date_created: p.date_created - DAY })), now), null, 'older than 24 h does not count')

  const prayers = [
    { id: 1, user: 1, archive_document: 9, status: 1, date_created: 'T' },
    { id: 2, user: 2, archive_document: 9, status: 2, date_created: 'T' },
    { id: 3, user: 3, archive_document: 8, status: 1, date_created: 'T' },
  ]
  t.same(prayersToGrant(prayers, 9), [{ id: 1, user: 1, archive_document: 9, status: PRAYER_STATUS.GRANTED, date_created: 'T' }])
  t.throws(() => grantPrayer(prayers[1]), /illegal prayer transition/)
})
