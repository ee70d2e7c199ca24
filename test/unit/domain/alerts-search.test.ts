import t from 'tap'
import {
  checkSearchAlert, checkAlertFrequency, resolveAlertType, queryType, checkAlertQuota, ALERT_RATES, ALERT_TYPES,
  type SearchAlertContext, type StoredSearchAlert, type ExistingAlertSummary, type AlertCheck,
} from '../../../domain/alerts/index.js'

const isMatchAll = (q: string) => {
  const p = new URLSearchParams(q)
  return !(p.get('q') ?? '').trim() || p.get('q') === '*'
}
const ctx = (over: Partial<SearchAlertContext> = {}): SearchAlertContext => ({ isMatchAll, user: { membership: null }, userAlerts: [], ...over })

/** The status and body an error would answer with. */
function answer<T>(r: AlertCheck<T>): { status: number; body: unknown } | null {
  return r.ok ? null : { status: r.error.status, body: r.error.toBody() }
}

t.test('rates and types', async (t) => {
  t.same(Object.keys(ALERT_RATES), ['rt', 'dly', 'wly', 'mly', 'off'])
  t.same(Object.keys(ALERT_TYPES), ['o', 'r', 'd', 'oa'])
  t.equal(queryType('q=a&type=r'), 'r')
  t.equal(queryType('?q=a&type=oa'), 'oa')
  t.equal(queryType('q=a'), null)
})

t.test('create: the type comes from the query', async (t) => {
  const ok = checkSearchAlert({ name: 'n', query: 'q=copyright', rate: 'wly' }, ctx())
  t.same(ok, { ok: true, value: { name: 'n', query: 'q=copyright', rate: 'wly', alert_type: 'o', needsEstimate: true } })
  const oa = checkSearchAlert({ name: 'n', query: 'q=x&type=oa', rate: 'dly', alert_type: 'r' }, ctx())
  t.equal(oa.ok && oa.value.alert_type, 'oa', 'the body alert_type is ignored for non-archive types')
  const r = checkSearchAlert({ name: 'n', query: 'q=x&type=r', rate: 'dly', alert_type: 'd' }, ctx())
  t.equal(r.ok && r.value.alert_type, 'd')
  t.match(answer(checkSearchAlert({ name: 'n', query: 'q=x&type=r', rate: 'dly' }, ctx())), { status: 400, body: { alert_type: [/Please provide an alert type/] } })
  t.match(answer(checkSearchAlert({ name: 'n', query: 'q=x&type=d', rate: 'dly', alert_type: 'o' }, ctx())), { status: 400, body: { alert_type: [/not valid for the given archive search query/] } })
  t.match(answer(checkSearchAlert({ name: 'n', query: 'q=x&type=p', rate: 'dly' }, ctx())), { status: 400, body: { alert_type: ['Unsupported alert type.'] } })
  t.same(resolveAlertType('q=x', 'r'), { ok: true, value: 'o' })
})

t.test('create: required fields, lengths, choices', async (t) => {
  t.same(answer(checkSearchAlert({}, ctx())), { status: 400, body: { name: ['This field is required.'], query: ['This field is required.'], rate: ['This field is required.'] } })
  t.same(answer(checkSearchAlert({ name: 'x'.repeat(76), query: 'q=a', rate: 'hourly' }, ctx())), {
    status: 400, body: { name: ['Ensure this field has no more than 75 characters.'], rate: ['"hourly" is not a valid choice.'] },
  })
  t.same(answer(checkSearchAlert({ name: 'n', query: 'q=' + 'a'.repeat(2500), rate: 'dly' }, ctx()))?.body, { query: ['Ensure this field has no more than 2500 characters.'] })
})

t.test('match-all queries are refused, decided by the injected compiler', async (t) => {
  t.same(answer(checkSearchAlert({ name: 'n', query: 'q=&type=o', rate: 'dly' }, ctx())), {
    status: 400, body: { query: ["You can't create a match-all alert. Please try narrowing your query."] },
  })
  const seen: string[] = []
  checkSearchAlert({ name: 'n', query: 'q=a', rate: 'dly' }, ctx({ isMatchAll: (q) => (seen.push(q), false) }))
  t.same(seen, ['q=a'])
})

t.test('update: PATCH over the stored alert; type changes only between r and d', async (t) => {
  const stored: StoredSearchAlert = { id: 7, name: 'old', query: 'q=x&type=r', rate: 'dly', alert_type: 'r' }
  const rename = checkSearchAlert({ name: 'new' }, ctx(), stored)
  t.same(rename, { ok: true, value: { name: 'new', query: 'q=x&type=r', rate: 'dly', alert_type: 'r', needsEstimate: false } }, 'no query sent: no estimate')
  const toD = checkSearchAlert({ alert_type: 'd' }, ctx(), stored)
  t.equal(toD.ok && toD.value.alert_type, 'd')
  t.same(answer(checkSearchAlert({ query: 'q=x&type=o' }, ctx(), stored)), { status: 400, body: { alert_type: ['The alert type can only be changed between r and d.'] } })
  const o: StoredSearchAlert = { id: 8, name: 'o', query: 'q=x', rate: 'dly', alert_type: 'o' }
  t.same(answer(checkSearchAlert({ query: 'q=x&type=oa' }, ctx(), o))?.status, 400)
  t.same(answer(checkSearchAlert({ query: 'q=x&type=r', alert_type: 'r' }, ctx(), o))?.status, 400)
  const q = checkSearchAlert({ query: 'q=y' }, ctx(), o)
  t.ok(q.ok && q.value.needsEstimate)
})

t.test('the frequency estimate: 100 days, more than 30 a day is refused', async (t) => {
  t.same(checkAlertFrequency(3099), { ok: true, value: 3099 }, '30 per day is still fine')
  t.same(answer(checkAlertFrequency(3100)), {
    status: 400,
    body: { estimated_hits: 3100, detail: 'This query averages about 31 results per day, which is more than our system can support. Please narrow your query to have fewer results per day.' },
  })
  t.same(answer(checkAlertFrequency(null)), { status: 400, body: { query: ["This query is invalid and can't be used for an alert."] } })
})

t.test('quotas by membership level', async (t) => {
  const many = (n: number, rate: ExistingAlertSummary['rate'], alert_type: ExistingAlertSummary['alert_type'] = 'r'): ExistingAlertSummary[] =>
    Array.from({ length: n }, (_, i) => ({ id: 100 + i, rate, alert_type }))
  const q = (membership: Parameters<typeof checkAlertQuota>[0]['membership'], rate: ExistingAlertSummary['rate'], type: ExistingAlertSummary['alert_type'], others: ExistingAlertSummary[], editing?: number) => {
    const e = checkAlertQuota({ membership }, rate, type, others, editing)
    return e ? e.status : 'ok'
  }
  t.equal(q(null, 'rt', 'o', []), 403, 'real time needs a membership, any type')
  t.match(checkAlertQuota({ membership: null }, 'rt', 'oa', [])?.message, /must be a member/)
  t.equal(q('tier_1', 'rt', 'o', []), 'ok')
  t.equal(q(null, 'dly', 'r', many(4, 'wly')), 'ok')
  t.equal(q(null, 'dly', 'r', many(5, 'wly')), 403, 'free: 5 digest archive alerts')
  t.match(checkAlertQuota({ membership: null }, 'dly', 'r', many(5, 'wly'))?.message, /more than 5 alerts/)
  t.equal(q(null, 'dly', 'o', many(5, 'wly')), 'ok', 'case law alerts do not count')
  t.equal(q(null, 'dly', 'r', many(9, 'off')), 'ok', 'off alerts do not count')
  t.equal(q(null, 'off', 'r', many(9, 'dly')), 'ok', 'turning off is always allowed')
  t.equal(q(null, 'dly', 'd', many(5, 'dly', 'o')), 'ok')
  t.equal(q('legacy', 'mly', 'r', many(5, 'dly')), 403, 'legacy: 5')
  t.equal(q('tier_1', 'mly', 'r', many(9, 'dly')), 'ok')
  t.equal(q('tier_1', 'mly', 'r', many(10, 'dly')), 403, 'tier 1: 10')
  t.match(checkAlertQuota({ membership: 'tier_1' }, 'mly', 'r', many(10, 'dly'))?.message, /upgrade your membership/)
  t.equal(q('tier_4', 'dly', 'd', many(99, 'dly', 'd')), 'ok')
  t.equal(q('tier_4', 'dly', 'd', many(100, 'dly', 'd')), 403, 'tier 4: 100')
  t.equal(q('tier_1', 'rt', 'r', many(4, 'rt')), 'ok')
  t.equal(q('tier_1', 'rt', 'r', many(5, 'rt')), 403, 'tier 1 real time: 5')
  t.equal(q('tier_1', 'rt', 'r', many(9, 'dly')), 'ok', 'real-time and digest quotas are separate')
  t.equal(q('tier_3', 'rt', 'r', many(25, 'rt')), 403, 'tier 3 real time: 25')
  t.equal(q('tier_2', 'rt', 'r', many(10, 'rt'), 100), 'ok', 'an edited alert does not count against itself')
  t.equal(checkAlertQuota({ membership: null, commercial: true }, 'rt', 'r', many(500, 'rt')), null, 'commercial users bypass quotas')

  const over = checkSearchAlert({ name: 'n', query: 'q=x&type=r', rate: 'dly', alert_type: 'r' }, ctx({ userAlerts: many(5, 'dly') }))
  t.same(answer(over)?.status, 403)
  t.match((answer(over)?.body as { detail: string }).detail, /become a member/)
})
