import t from 'tap'
import { cutRanges, firstPageUrl } from '../../../connectors/mirror/mirror.js'
import { planMirror } from '../../../connectors/mirror/plan.js'
import { catalogue } from '../../../schemas/catalogue/index.js'

t.test('a list is cut into ranges of equal time that meet end to start, the last without an end', async (t) => {
  const ranges = cutRanges(null, '2026-01-01T00:00:00Z', '2026-01-05T00:00:00Z', 4)
  t.same(ranges, [
    { lo: null, before: '2026-01-02T00:00:00.000Z' },
    { lo: '2026-01-02T00:00:00.000Z', before: '2026-01-03T00:00:00.000Z' },
    { lo: '2026-01-03T00:00:00.000Z', before: '2026-01-04T00:00:00.000Z' },
    { lo: '2026-01-04T00:00:00.000Z', before: null },
  ])
})

t.test('the first range starts where the checkpoint says', async (t) => {
  const ranges = cutRanges('2026-01-01T00:00:00.5-05:00', '2026-01-01T00:00:00.5-05:00', '2026-01-01T07:00:00.5Z', 2)
  t.equal(ranges[0].lo, '2026-01-01T00:00:00.5-05:00', 'the source\'s own text, so its ids at that instant still apply')
  t.equal(ranges.length, 2)
  t.same(ranges[1], { lo: '2026-01-01T06:00:00.500Z', before: null }, 'cut halfway through the span (05:00 to 07:00 UTC)')
})

t.test('no time between the oldest and newest change, or one range asked: one range', async (t) => {
  t.same(cutRanges(null, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', 4), [{ lo: null, before: null }])
  t.same(cutRanges('2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z', 1), [{ lo: '2026-01-01T00:00:00Z', before: null }])
})

t.test('a span shorter than the ranges asked gives fewer ranges, never an empty one twice', async (t) => {
  const ranges = cutRanges(null, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.002Z', 8)
  const cuts = ranges.slice(1).map((r) => r.lo)
  t.same(cuts, [...new Set(cuts)], 'each cut once')
  t.ok(ranges.length <= 3)
})

t.test('a range\'s first page asks for its span of date_modified', async (t) => {
  const dockets = planMirror(catalogue, ['dockets'])[0]
  const url = new URL(firstPageUrl(dockets, '2026-01-02T00:00:00+01:00', '2026-01-03T00:00:00.000Z'), 'http://x/')
  t.equal(url.searchParams.get('order_by'), 'date_modified')
  t.equal(url.searchParams.get('date_modified__gte'), '2026-01-02T00:00:00+01:00')
  t.equal(url.searchParams.get('date_modified__lt'), '2026-01-03T00:00:00.000Z')
})
