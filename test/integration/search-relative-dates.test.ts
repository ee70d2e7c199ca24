/**
 * Relative dates on the real stack: `filed_after=past N days` (and the other forms) through the
 * search API returns exactly what the absolute date it names returns, a relative value without a
 * direction is the field-keyed 400, and a stored search alert with `filed_after=past 7 days` keeps
 * meaning "the last 7 days" as the percolator's clock moves on.
 */
import t from 'tap'
import { waitFor } from '../helpers/stack.js'
import { searchStack } from '../helpers/search-stack.js'
import { openWebhookQueue } from '../../core/events/webhook-queue.js'
import { manualClock } from '../../core/clock.js'
import { analyzeDocument } from '../../domain/search/index.js'
import { utcDay } from '../../domain/search/relative-date.js'
import { startPercolator } from '../../streams/search/percolator.js'
import type { IndexedDocument } from '../../streams/search/indexer.js'

const DAY = 86_400_000
const ts = '2024-01-01T00:00:00+00:00'
/** The day `n` days before today (UTC). */
const daysAgo = (n: number, now = Date.now()) => utcDay(now - n * DAY)

/** Runs `f` again if the UTC day changed while it ran (the API counts back from its own today). */
async function withinOneDay<T>(f: () => Promise<T>): Promise<T> {
  for (;;) {
    const before = utcDay(Date.now())
    const v = await f()
    if (utcDay(Date.now()) === before) return v
  }
}

t.test('relative dates', async (t) => {
  const { rt, pub, get } = await searchStack(t)

  await pub.upsert('courts', { id: 'scotus', full_name: 'Supreme Court of the United States', short_name: 'SCOTUS', citation_string: 'SCOTUS', jurisdiction: 'F', position: 1, date_modified: ts })
  // cluster id → filed that many days ago
  const ages: Record<number, number> = { 1: 0, 2: 3, 3: 6, 4: 8, 5: 20, 6: 45, 7: 200, 8: 400, 9: 800 }
  for (const [key, age] of Object.entries(ages)) {
    const id = Number(key)
    await pub.upsert('dockets', { id, court_id: 'scotus', case_name: `Party ${id} v. Other`, docket_number: `${id}-cv-1`, source: 0, slug: 'case', date_created: ts, date_modified: ts })
    await pub.upsert('clusters', { id, docket_id: id, case_name: `Party ${id} v. Other`, date_filed: daysAgo(age), precedential_status: 'Published', citation_count: id, slug: 'case', date_created: ts, date_modified: ts })
    await pub.upsert('opinions', { id: id * 10, cluster_id: id, type: '010combined', plain_text: `The court decided matter ${id}.`, date_created: ts, date_modified: ts })
  }
  await pub.flush()

  const ids = async (query: string) => {
    const r = await get(`/api/rest/v4/search/?${query}&order_by=dateFiled%20desc`)
    if (r.status !== 200) throw new Error(`${query}: ${r.status} ${JSON.stringify(r.body)}`)
    return (r.body.results as { cluster_id: number }[]).map((x) => x.cluster_id)
  }
  await waitFor(async () => (await get('/api/rest/v4/search/?type=o')).body.count === 9, 'every cluster indexed', 120_000, 300)

  t.test('a relative date answers what its absolute date answers', async (t) => {
    const cases: [string, number][] = [
      ['past 7 days', 7], ['-30d', 30], ['-30 d', 30], ['30 days ago', 30], ['past 2 months', 60], ['1 year ago', 365],
      ['-2y', 730], ['past 0 days', 0], ['PAST 1 YEAR', 365], ['1m ago', 30],
    ]
    for (const [value, days] of cases) {
      await withinOneDay(async () => {
        const q = encodeURIComponent(value)
        const absolute = daysAgo(days)
        const expected = Object.entries(ages).filter(([, age]) => age <= days).map(([id]) => Number(id))
        const after = await ids(`filed_after=${q}`)
        t.same(after, await ids(`filed_after=${absolute}`), `filed_after=${value} is filed_after=${absolute}`)
        t.same(after, expected, `filed_after=${value}: the clusters filed in the last ${days} days`)
        t.same(await ids(`filed_before=${q}`), await ids(`filed_before=${absolute}`), `filed_before=${value} is filed_before=${absolute}`)
      })
    }
    await withinOneDay(async () => {
      t.same(await ids('filed_after=past%2050%20days&filed_before=-7d'), [4, 5, 6], 'a range of two relative ends')
      t.same(await ids('q=matter&filed_after=past+7+days'), [1, 2, 3], 'with a query, + for spaces')
    })
  })

  t.test('a relative value without a direction is the 400 of a bad date', async (t) => {
    t.same(await get('/api/rest/v4/search/?filed_after=5%20days'), { status: 400, body: { filed_after: ['Enter a valid date.'] } })
    for (const value of ['+3d', '2y', '5days', '1 year', 'past -1 year', '-3 weeks']) {
      t.same(await get(`/api/rest/v4/search/?filed_after=${encodeURIComponent(value)}`), { status: 400, body: { filed_after: ['Enter a valid date.'] } }, value)
    }
    t.same(await get('/api/rest/v4/search/?filed_before=%2B3d&filed_after=past%207%20days'), { status: 400, body: { filed_before: ['Enter a valid date.'] } }, 'only the bad filter is named')
  })

  t.test('a stored alert with filed_after=past 7 days means the 7 days before each match', async (t) => {
    const start = Date.parse('2026-03-01T09:00:00Z')
    const clock = manualClock(start)
    const queue = await openWebhookQueue(rt)
    t.teardown(() => queue.stop())
    const percolator = await startPercolator({ ...rt, clock, publisher: pub, queue })
    t.teardown(() => percolator.stop())
    await pub.upsert('alerts', { id: 700, user_id: 1, name: 'Recent matters', query: 'q=matter&filed_after=past%207%20days', rate: 'dly', alert_type: 'o', secret_key: 'k'.repeat(40), date_created: ts, date_modified: ts, date_last_hit: null })
    await pub.upsert('alerts', { id: 701, user_id: 1, name: 'Fixed date', query: 'q=matter&filed_after=2026-02-22', rate: 'dly', alert_type: 'o', secret_key: 'k'.repeat(40), date_created: ts, date_modified: ts, date_last_hit: null })
    await pub.flush()
    await waitFor(async () => percolator.size === 2, 'the alerts compiled')
    // match() looks only at a document's type and analyzed fields
    const doc = (id: number, filed: string): IndexedDocument => ({ type: 'o', id, built: undefined as never, analyzed: analyzeDocument('o', { id, case_name: `Party ${id}`, text: 'the matter decided', date_filed: filed }) })
    const matched = (docs: IndexedDocument[]) => percolator.match(docs).map((h) => `${h.alert.id}:${h.doc.id}`).sort()
    const docs = [doc(1, '2026-02-20'), doc(2, '2026-02-22'), doc(3, '2026-02-25'), doc(4, '2026-03-01'), doc(5, '2026-03-05'), doc(6, '2026-03-10')]
    // 1 March: from 22 February
    t.same(matched(docs), ['700:2', '700:3', '700:4', '700:5', '700:6', '701:2', '701:3', '701:4', '701:5', '701:6'])
    clock.advance(14 * 60 * 60 * 1000) // 23:00 the same day: still from 22 February
    t.same(matched(docs).filter((h) => h.startsWith('700:')), ['700:2', '700:3', '700:4', '700:5', '700:6'])
    clock.advance(2 * 60 * 60 * 1000) // 2 March, 01:00: from 23 February
    t.same(matched(docs).filter((h) => h.startsWith('700:')), ['700:3', '700:4', '700:5', '700:6'], 'the next day counts back from the next day')
    clock.advance(9 * DAY) // 11 March: from 4 March
    t.same(matched(docs), ['700:5', '700:6', '701:2', '701:3', '701:4', '701:5', '701:6'], 'the relative alert moved on; the absolute one did not')
    // An alert changed on a later day is compiled with that day's dates.
    await pub.upsert('alerts', { id: 700, user_id: 1, name: 'Recent matters', query: 'q=matter&filed_after=past%2030%20days', rate: 'dly', alert_type: 'o', secret_key: 'k'.repeat(40), date_created: ts, date_modified: '2026-03-11T00:00:00+00:00', date_last_hit: null })
    await pub.flush()
    await waitFor(async () => matched(docs).includes('700:1'), 'the edited alert compiled', 30_000, 100)
    t.same(matched(docs).filter((h) => h.startsWith('700:')), ['700:1', '700:2', '700:3', '700:4', '700:5', '700:6'], 'past 30 days from 11 March: from 9 February')
  })
})
