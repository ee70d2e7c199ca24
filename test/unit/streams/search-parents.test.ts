import t from 'tap'
import { parentsAfter, changedParents } from '../../../streams/search/parents.js'

const upsert = (resource: string, entity: Record<string, unknown>) => ({ resource, op: 'upsert' as const, key: String(entity.id), entity })
const del = (resource: string, id: number) => ({ resource, op: 'delete' as const, key: String(id), entity: null })

t.test('a row names the documents it goes into; the last change of a row in a batch wins', async (t) => {
  const now = parentsAfter([
    upsert('opinions', { id: 10, cluster_id: 1 }),
    upsert('opinions', { id: 10, cluster_id: 2 }),
    upsert('parties', { id: 5, docket_ids: [7, 8, 7] }),
    upsert('positions', { id: 3, person_id: 9 }),
    upsert('attorneys', { id: 6, docket_ids: [1] }),
    del('attorneys', 6),
  ])
  t.same(now.get('opinions'), new Map([[10, [2]]]), 'the opinion is in its new cluster')
  t.same(now.get('parties'), new Map([[5, [7, 8]]]), 'each docket once')
  t.same(now.get('positions'), new Map([[3, [9]]]))
  t.same(now.get('attorneys'), new Map([[6, []]]), 'a deleted row is in no document')
})

t.test('rows of resources that are documents themselves are not followed', async (t) => {
  const now = parentsAfter([upsert('clusters', { id: 1, docket_id: 4 }), upsert('dockets', { id: 4 })])
  t.equal(now.size, 0)
})

t.test('only rows whose documents changed are recorded again', async (t) => {
  const now = parentsAfter([
    upsert('opinions', { id: 1, cluster_id: 1 }), // unchanged
    upsert('opinions', { id: 2, cluster_id: 3 }), // moved from 2
    upsert('opinions', { id: 4, cluster_id: 4 }), // new
    upsert('parties', { id: 1, docket_ids: [2, 1] }), // same dockets, other order
    upsert('parties', { id: 2, docket_ids: [] }), // left its docket
    del('parties', 3), // deleted, never recorded
  ])
  const before = new Map([
    ['opinions', new Map([[1, [1]], [2, [2]]])],
    ['parties', new Map([[1, [1, 2]], [2, [5]]])],
  ])
  t.same(changedParents(now, before), [
    { resource: 'opinions', member: 2, parents: [3] },
    { resource: 'opinions', member: 4, parents: [4] },
    { resource: 'parties', member: 2, parents: [] },
  ])
})
