/**
 * The object cache serves an object again only while nothing it was built from has changed, never
 * keeps one built across a change, keeps an object from its second request on, keeps versions and
 * origins apart, and stays within its size.
 */
import t from 'tap'
import { createObjectCache, type ObjectCache } from '../../../api/engine/object-cache.js'

function epochs() {
  const at = new Map<string, number>()
  return { epoch: (r: string) => at.get(r) ?? 0, bump: (r: string) => at.set(r, (at.get(r) ?? 0) + 1) }
}
const DEPS = ['dockets', 'clusters']

/** One request as the reader makes it: look up, and on a miss build the object and offer it. */
function ask(cache: ObjectCache, key: number, obj: Record<string, unknown>, opts: { resource?: string; version?: string; origin?: string } = {}) {
  const lease = cache.lease(opts.resource ?? 'dockets', DEPS, opts.version ?? 'v4', opts.origin ?? 'http://a')
  const hit = lease.get(key)
  if (hit) return hit
  lease.put(key, obj)
  lease.end()
  return undefined
}

t.test('an object is kept from its second request and served until a dependency changes', async (t) => {
  const e = epochs()
  const cache = createObjectCache(e)
  t.equal(ask(cache, 1, { id: 1 }), undefined, 'first request: built')
  t.equal(cache.stats.entries, 0, 'seen once: not kept')
  t.equal(ask(cache, 1, { id: 1, n: 2 }), undefined, 'second request: built and kept')
  t.same(ask(cache, 1, { id: 1, n: 3 }), { id: 1, n: 2 }, 'third: served')
  for (let i = 100; i < 200; i++) ask(cache, i, { id: i })
  t.equal(cache.stats.entries, 1, 'a hundred one-off reads kept nothing')
  t.equal(ask(cache, 1, { id: 1 }, { version: 'v3' }), undefined, 'another version has its own URLs')
  t.equal(ask(cache, 1, { id: 1 }, { origin: 'http://b' }), undefined, 'another origin too')
  e.bump('clusters')
  t.equal(ask(cache, 1, { id: 1, n: 4 }), undefined, 'a change to a related resource empties the slot')
  t.same(ask(cache, 1, { id: 1, n: 5 }), { id: 1, n: 4 }, 'an object kept before is kept again on its next build')
})

t.test('an object built while a dependency changed is not kept', async (t) => {
  const e = epochs()
  const cache = createObjectCache(e)
  ask(cache, 1, { id: 1 })
  const lease = cache.lease('dockets', DEPS, 'v4', 'http://a')
  t.equal(lease.get(1), undefined)
  lease.put(1, { id: 1, case_name: 'old' })
  e.bump('dockets') // the row changed while the object was built
  lease.end()
  t.equal(cache.lease('dockets', DEPS, 'v4', 'http://a').get(1), undefined)
  // A slow request that began before a change does not refill the slot after a newer one emptied it.
  ask(cache, 2, { id: 2 })
  ask(cache, 3, { id: 3 })
  const slow = cache.lease('dockets', DEPS, 'v4', 'http://a')
  slow.get(2)
  slow.put(2, { id: 2 })
  e.bump('dockets')
  t.equal(ask(cache, 3, { id: 3 }), undefined)
  slow.end()
  t.equal(ask(cache, 2, { id: 2 }), undefined, 'the slow request kept nothing')
  t.same(ask(cache, 3, { id: 3, again: true }), { id: 3 }, 'the fresh one did')
})

t.test('the cache stays within its size, oldest first', async (t) => {
  const cache = createObjectCache(epochs(), { maxEntries: 100 })
  for (let i = 0; i < 250; i++) for (let n = 0; n < 2; n++) ask(cache, i, { id: i }, { resource: i % 2 ? 'dockets' : 'clusters' })
  t.ok(cache.stats.entries <= 100, `${cache.stats.entries} entries`)
  t.same(ask(cache, 249, {}), { id: 249 }, 'the newest is kept')
  t.equal(ask(cache, 0, {}, { resource: 'clusters' }), undefined, 'the oldest is gone')
})
