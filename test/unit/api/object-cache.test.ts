/**
 * The object cache serves an object again only while nothing it was built from has changed, never
 * keeps one built across a change, keeps versions and origins apart, and stays within its size.
 */
import t from 'tap'
import { createObjectCache } from '../../../api/engine/object-cache.js'

function epochs() {
  const at = new Map<string, number>()
  return { epoch: (r: string) => at.get(r) ?? 0, bump: (r: string) => at.set(r, (at.get(r) ?? 0) + 1) }
}
const DEPS = ['dockets', 'clusters']

t.test('an object is served until one of its dependencies changes', async (t) => {
  const e = epochs()
  const cache = createObjectCache(e)
  const first = cache.lease('dockets', DEPS, 'v4', 'http://a')
  t.equal(first.get(1), undefined, 'empty at first')
  first.put(1, { id: 1, case_name: 'A' })
  first.end()
  t.same(cache.lease('dockets', DEPS, 'v4', 'http://a').get(1), { id: 1, case_name: 'A' }, 'kept')
  t.equal(cache.lease('dockets', DEPS, 'v3', 'http://a').get(1), undefined, 'another version has its own URLs')
  t.equal(cache.lease('dockets', DEPS, 'v4', 'http://b').get(1), undefined, 'another origin too')
  e.bump('clusters')
  t.equal(cache.lease('dockets', DEPS, 'v4', 'http://a').get(1), undefined, 'a change to a related resource empties the slot')
  t.equal(cache.stats.entries, 0)
})

t.test('an object built while a dependency changed is not kept', async (t) => {
  const e = epochs()
  const cache = createObjectCache(e)
  const lease = cache.lease('dockets', DEPS, 'v4', 'http://a')
  lease.put(1, { id: 1, case_name: 'old' })
  e.bump('dockets') // the row changed while the object was built
  lease.end()
  t.equal(cache.lease('dockets', DEPS, 'v4', 'http://a').get(1), undefined)
  // A slow request that began before a change does not refill the slot after a newer one emptied it.
  const slow = cache.lease('dockets', DEPS, 'v4', 'http://a')
  slow.put(2, { id: 2 })
  e.bump('dockets')
  const fresh = cache.lease('dockets', DEPS, 'v4', 'http://a')
  fresh.put(3, { id: 3 })
  fresh.end()
  slow.end()
  const after = cache.lease('dockets', DEPS, 'v4', 'http://a')
  t.equal(after.get(2), undefined, 'the slow request kept nothing')
  t.same(after.get(3), { id: 3 }, 'the fresh one did')
})

t.test('the cache stays within its size, oldest first', async (t) => {
  const cache = createObjectCache(epochs(), { maxEntries: 100 })
  for (let i = 0; i < 250; i++) {
    const lease = cache.lease(i % 2 ? 'dockets' : 'clusters', DEPS, 'v4', 'o')
    lease.put(i, { id: i })
    lease.end()
  }
  t.ok(cache.stats.entries <= 100, `${cache.stats.entries} entries`)
  t.same(cache.lease('dockets', DEPS, 'v4', 'o').get(249), { id: 249 }, 'the newest is kept')
  t.equal(cache.lease('clusters', DEPS, 'v4', 'o').get(0), undefined, 'the oldest is gone')
})
