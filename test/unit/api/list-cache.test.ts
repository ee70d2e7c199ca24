/**
 * The list cache keeps an answer from its second request on, serves it while the epochs it was
 * built at are current, and never keeps one built across a change.
 */
import t from 'tap'
import { createListCache } from '../../../api/engine/list-cache.js'

function epochs() {
  const at = new Map<string, number>()
  return { epoch: (r: string) => at.get(r) ?? 0, bump: (r: string) => at.set(r, (at.get(r) ?? 0) + 1) }
}
const DEPS = ['dockets']
const body = (s: string) => Buffer.from(s)

t.test('a one-off list is not kept; a repeated one is', async (t) => {
  const cache = createListCache(epochs())
  /** One request as the route makes it: look up, and on a miss build and offer the answer. */
  const ask = (key: string, answer: string) => {
    const hit = cache.get(key)
    if (hit) return hit.toString()
    cache.set(key, DEPS, cache.snapshot(DEPS), body(answer))
    return `built ${answer}`
  }
  t.equal(ask('a', '1'), 'built 1', 'first request')
  t.equal(cache.stats.entries, 0, 'seen once: not kept')
  t.equal(ask('a', '2'), 'built 2', 'second request builds again')
  t.equal(ask('a', '3'), '2', 'and from then on it is served')
  for (let i = 0; i < 100; i++) ask(`cold${i}`, 'x')
  t.equal(cache.stats.entries, 1, 'a hundred one-off lists kept nothing')
})

t.test('a change makes the answer stale, and it is rebuilt and kept again at once', async (t) => {
  const e = epochs()
  const cache = createListCache(e)
  for (let i = 0; i < 2; i++) { cache.get('k'); cache.set('k', DEPS, cache.snapshot(DEPS), body('old')) }
  t.equal(cache.get('k')?.toString(), 'old')
  e.bump('dockets')
  t.equal(cache.get('k'), undefined, 'stale after a change')
  const before = cache.snapshot(DEPS)
  e.bump('dockets') // another change while the answer is built
  cache.set('k', DEPS, before, body('mixed'))
  t.equal(cache.get('k'), undefined, 'an answer built across a change is not kept')
  cache.set('k', DEPS, cache.snapshot(DEPS), body('new'))
  t.equal(cache.get('k')?.toString(), 'new', 'a list that was kept before is kept again on its next build')
})
