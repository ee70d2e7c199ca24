import t from 'tap'
import { catalogue } from '../../../schemas/catalogue/index.js'
import { planMirror, dependencyOrder, walkModeOf } from '../../../connectors/mirror/plan.js'
import { firstPageUrl } from '../../../connectors/mirror/mirror.js'

const names = (xs: { name: string }[]) => xs.map((x) => x.name)

t.test('resources come after those their relations point at', async (t) => {
  const order = planMirror(catalogue).map((s) => s.resource.name)
  const before = (a: string, b: string) => t.ok(order.indexOf(a) >= 0 && order.indexOf(a) < order.indexOf(b), `${a} before ${b}`)
  before('courts', 'dockets')
  before('dockets', 'clusters')
  before('clusters', 'opinions')
  before('people', 'positions')
  before('dockets', 'docket-entries')
  before('schools', 'educations')
  // Asked in the wrong order, the plan still puts them in dependency order.
  t.same(planMirror(catalogue, ['opinions', 'dockets', 'courts', 'clusters']).map((s) => s.resource.name), ['courts', 'dockets', 'clusters', 'opinions'])
})

t.test('a cycle does not stop the order: the catalogue order breaks it', async (t) => {
  const a = { ...catalogue.get('courts'), name: 'a', fields: { id: { kind: 'int' as const }, b: { kind: 'fk' as const, target: 'b' } } }
  const b = { ...catalogue.get('courts'), name: 'b', fields: { id: { kind: 'int' as const }, a: { kind: 'fk' as const, target: 'a' } } }
  const c = { ...catalogue.get('courts'), name: 'c', fields: { id: { kind: 'int' as const }, a: { kind: 'fk' as const, target: 'a' } } }
  t.same(names(dependencyOrder([c, b, a])), ['b', 'a', 'c'])
})

t.test('each list is walked by date_modified where it can be, else in a full pass by id', async (t) => {
  t.same(walkModeOf(catalogue.get('dockets')), { mode: 'modified-cursor', rangeable: true }, 'dockets by cursor, in date_modified ranges at once')
  t.same(walkModeOf(catalogue.get('courts')), { mode: 'modified-pages', rangeable: true }, 'courts page by number')
  t.same(walkModeOf(catalogue.get('opinions-cited')), { mode: 'id-pass', idOrder: '-id' }, 'no ordering allowed: the default -id')
})

t.test('nested rows without a list of their own come with their parent, once', async (t) => {
  const plan = planMirror(catalogue)
  const names = plan.map((s) => s.resource.name)
  t.notOk(names.includes('citations'), 'citations have no list')
  t.notOk(names.includes('archive-documents'), 'archive documents do not show their entry: taken from docket-entries')
  t.notOk(names.includes('opinions-cited'), 'the target derives the citation network itself')
  t.notOk(names.includes('alerts') || names.includes('tags'), 'users\' own resources are not mirrored')
  const clusters = plan.find((s) => s.resource.name === 'clusters')!
  t.same(clusters.nested.map((n) => [n.field, n.target.name, n.via]), [['citations', 'citations', 'cluster_id'], ['cluster_redirections', 'cluster-redirections', 'cluster_id']])
  const parties = plan.find((s) => s.resource.name === 'parties')!
  t.same(parties.nested.map((n) => [n.field, n.parts.map((p) => p.target.name)]), [['party_types', ['criminal-counts', 'criminal-complaints']]])
  const everyNested = plan.flatMap((s) => s.nested.map((n) => n.target.name))
  t.equal(new Set(everyNested).size, everyNested.length, 'no resource is taken from two parents')
  t.ok(planMirror(catalogue, ['opinions-cited']).length === 1, 'named, a derived resource is mirrored')
  t.throws(() => planMirror(catalogue, ['nope']), /cannot mirror nope/)
})

t.test('the first page asks for changes from the checkpoint on, in date_modified order', async (t) => {
  const [dockets] = planMirror(catalogue, ['dockets'])
  t.equal(firstPageUrl(dockets, null), 'dockets/?order_by=date_modified')
  t.equal(firstPageUrl(dockets, '2024-01-02T03:04:05.123456+00:00'), 'dockets/?order_by=date_modified&date_modified__gte=2024-01-02T03%3A04%3A05.123456%2B00%3A00', 'the offset\'s + is escaped')
  const [cited] = planMirror(catalogue, ['opinions-cited'])
  t.equal(firstPageUrl(cited, '2024-01-02T00:00:00Z'), 'opinions-cited/', 'a full pass asks for everything, in the list\'s own order')
})
