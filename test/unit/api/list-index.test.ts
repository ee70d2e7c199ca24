/**
 * The read model's list indexes without a store: which lists the planner gives them (and which it
 * leaves to ClickHouse), and range counts from bucket counters against counting every value.
 */
import t from 'tap'
import { catalogue } from '../../../schemas/catalogue/index.js'
import { compileListPlanner } from '../../../api/engine/list-plan.js'
import { compileOrdering } from '../../../api/engine/ordering.js'
import { listIndexesOf, bucketOf, countRange, FINEST_LEVEL, type IndexValue, type OrderRange } from '../../../api/read-model/list-index.js'
import { createRng } from '../../../connectors/sample/random.js'
import { instantText } from '../../../schemas/values.js'

t.test('the planner takes equality on the index columns and bounds on its ordering, nothing else', async (t) => {
  const dockets = catalogue.get('dockets')
  const plan = compileListPlanner(catalogue, dockets, listIndexesOf(catalogue).get('dockets'))
  const order = compileOrdering(dockets)
  const ask = (query: string) => {
    const params = new Map<string, string[]>()
    for (const [k, v] of new URLSearchParams(query)) params.set(k, [...(params.get(k) ?? []), v])
    return plan(params, order(params.get('order_by')?.[0]))
  }
  t.match(ask('court=scotus'), { index: { name: 'court_id>id' }, by: ['scotus'], desc: true }, 'the default ordering (-id) within a court')
  t.match(ask('court=scotus&order_by=date_filed&date_filed__gte=2001-01-01&date_filed__lt=2002-01-01'),
    { index: { name: 'court_id>date_filed' }, by: ['scotus'], desc: false, range: { lo: '2001-01-01', hi: '2002-01-01', hiExclusive: true } })
  t.match(ask('order_by=-date_filed&date_filed__range=2001-01-01,2001-12-31'), { index: { name: '>date_filed' }, by: [], range: { lo: '2001-01-01', hi: '2001-12-31' } })
  t.match(ask('court=scotus&id__gt=10&id__gte=12&order_by=id'), { range: { lo: 12 } }, 'the tighter bound wins')
  t.match(ask('court=scotus&order_by=-id&page=3&fields=id&page_size=5&format=json'), { index: { name: 'court_id>id' } }, 'framework parameters do not filter')
  t.match(ask('court=scotus&date_filed='), { index: { name: 'court_id>id' } }, 'an empty value filters nothing')
  t.match(ask(''), { index: { name: '>id' }, by: [], desc: true }, 'the whole table in the default ordering')
  t.match(ask('order_by=date_modified&date_modified__gte=2024-03-01T10:00:00%2B05:30&date_modified__lt=2024-03-02'),
    { index: { name: '>date_modified', datetime: true }, by: [], desc: false, range: { lo: '2024-03-01T04:30:00.000000Z', hi: '2024-03-02T00:00:00.000000Z', hiExclusive: true } },
    'datetime bounds as the instants ClickHouse reads them')
  for (const query of ['court!=scotus', 'court=scotus&court=ca9', 'court=scotus&docket_number=1', 'court__full_name=x',
    'court=scotus&order_by=date_modified', 'court=scotus&order_by=-date_filed,id', 'court=scotus&id__gt=1e3&order_by=id', 'court=scotus&date_filed__year=2001&order_by=date_filed',
    'date_filed__gte=2001-01-01&order_by=id', 'court=scotus&id=99999999999999999999&order_by=id',
    'order_by=date_modified&date_modified__gte=1850-01-01', 'order_by=-date_created']) {
    t.equal(ask(query), undefined, `left to ClickHouse: ${query || '(no filter)'}`)
  }
  const alerts = catalogue.get('alerts')
  t.equal(compileListPlanner(catalogue, alerts, [{ name: '>id', by: [], order: 'id' }])(new Map(), order(undefined)), undefined, 'never for a per-user resource')
})

t.test('a count from buckets equals counting every value in the range', async (t) => {
  const rng = createRng(11)
  const dates = Array.from({ length: 1_500 }, () => rng.int(0, 2) === 0 ? ['', '1999', '2001-01-01'][rng.int(0, 2)]
    : `${rng.int(1990, 2030)}-${String(rng.int(1, 12)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}`).sort()
  const ints = Array.from({ length: 1_500 }, () => rng.int(0, 200_000)).sort((a, b) => a - b)
  const utf8 = (a: IndexValue, b: IndexValue) => (typeof a === 'number' ? a - (b as number) : Buffer.compare(Buffer.from(a), Buffer.from(b as string)))
  const inRange = (v: IndexValue, r: OrderRange) => (r.lo === undefined || utf8(v, r.lo) > 0 || (utf8(v, r.lo) === 0 && !r.loExclusive))
    && (r.hi === undefined || utf8(v, r.hi) < 0 || (utf8(v, r.hi) === 0 && !r.hiExclusive))
  for (const [name, values, draw] of [
    ['dates', dates, () => (rng.int(0, 5) === 0 ? '2001' : `${rng.int(1988, 2032)}-${String(rng.int(1, 12)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}`)],
    ['integers', ints, () => rng.int(-10, 210_000)],
  ] as const) {
    const levels = Array.from({ length: FINEST_LEVEL + 1 }, (_, level) => {
      const buckets = new Map<IndexValue, number>()
      for (const v of values) buckets.set(bucketOf(v, level), (buckets.get(bucketOf(v, level)) ?? 0) + 1)
      return [...buckets].sort((a, b) => utf8(a[0], b[0]))
    })
    let exactCalls = 0
    let fineReads = 0
    let wrong = 0
    for (let i = 0; i < 2_000; i++) {
      const r: OrderRange = {}
      if (rng.int(0, 3) > 0) { r.lo = draw(); r.loExclusive = rng.int(0, 1) === 1 }
      if (rng.int(0, 3) > 0) { r.hi = draw(); r.hiExclusive = rng.int(0, 1) === 1 }
      if (rng.int(0, 9) === 0) r.hi = r.lo // one value
      const brute = (part: OrderRange) => { exactCalls++; return values.filter((v) => inRange(v, part)).length }
      const expected = values.filter((v) => inRange(v, r)).length
      // The store reads only the buckets that can hold the range; give all of the level: the rest must not count.
      const read = (level: number) => { if (level > 0) fineReads++; return levels[level] }
      if (countRange(read, r, brute) !== expected) wrong++
    }
    t.equal(wrong, 0, `${name}: 2,000 ranges counted right`)
    t.ok(exactCalls <= 2 * 2_000, `${name}: at most two fine buckets counted one by one per range (${exactCalls})`)
    t.ok(fineReads <= 2 * 2_000, `${name}: fine buckets read only inside the at most two coarse buckets a range cuts (${fineReads})`)
  }
})

t.test('datetimes are kept as ClickHouse prints them, so text order is time order', async (t) => {
  const cases: [string, string | undefined][] = [
    ['2024-03-01', '2024-03-01T00:00:00.000000Z'],
    ['2024-03-01T10:00', '2024-03-01T10:00:00.000000Z'],
    ['2024-03-01 10:00:00.5', '2024-03-01T10:00:00.500000Z'],
    ['2024-03-01T10:00:00.1234567+00:00', '2024-03-01T10:00:00.123456Z'], // cut, not rounded, as ClickHouse does
    ['2024-03-01T01:00:00-0530', '2024-03-01T06:30:00.000000Z'],
    ['2024-03-01T01:00:00+05', '2024-02-29T20:00:00.000000Z'], // across a leap day
    ['2024-02-30', undefined], ['2024-03-01T24:00', undefined], ['1899-12-31', undefined], ['2024-03-01T10:00:00+24:00', undefined], ['March 1, 2024', undefined],
  ]
  for (const [text, want] of cases) t.equal(instantText(text), want, text)
  const rng = createRng(5)
  const instants = Array.from({ length: 500 }, () => Date.UTC(rng.int(1950, 2090), rng.int(0, 11), rng.int(1, 28), rng.int(0, 23), rng.int(0, 59), rng.int(0, 59), rng.int(0, 999)))
  const texts = instants.map((ms) => {
    const offsetMin = rng.int(-12, 12) * 60 + rng.int(0, 1) * 30
    const local = new Date(ms + offsetMin * 60_000).toISOString().slice(0, 23)
    const sign = offsetMin < 0 ? '-' : '+'
    const abs = Math.abs(offsetMin)
    return instantText(`${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`)!
  })
  const byText = instants.map((ms, i) => [ms, texts[i]] as const).sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0))
  t.same(byText.map(([ms]) => ms), [...instants].sort((a, b) => a - b), 'texts of any offset sort as their instants')
})
