import t from 'tap'
import { scratchPool, IDLE_RELEASE_MS, type Later } from '../../../streams/search/scratch-pool.js'

/** A hand-stepped timer: `fire()` runs what is due as if IDLE_RELEASE_MS had passed. */
function manualLater() {
  const due: (() => void)[] = []
  const later: Later = (fn, ms) => { if (ms !== IDLE_RELEASE_MS) throw new Error(`unexpected delay ${ms}`); due.push(fn) }
  return { later, pending: () => due.length, fire() { const now = due.splice(0); for (const fn of now) fn() } }
}

t.test('a buffer given back is lent again, the smallest long enough', async (t) => {
  const clock = manualLater()
  const pool = scratchPool<Uint32Array>(8, 1 << 20, (n) => new Uint32Array(n), clock.later)
  const big = new Uint32Array(4096), small = new Uint32Array(1024)
  pool.give(big)
  pool.give(small)
  t.equal(pool.take(1000), small)
  t.equal(pool.take(1000), big)
  t.not(pool.take(1000), small, 'nothing kept: a new one')
})

t.test('what is kept is let go once the pool has been idle for a period, not while it is used', async (t) => {
  const clock = manualLater()
  const pool = scratchPool<Uint32Array>(8, 1 << 20, (n) => new Uint32Array(n), clock.later)
  t.equal(clock.pending(), 0, 'no timer while nothing is kept')
  const a = new Uint32Array(2048)
  pool.give(a)
  t.equal(pool.keptBytes, a.byteLength)
  t.equal(clock.pending(), 1, 'one timer, however many buffers')
  pool.give(new Uint32Array(16))
  t.equal(clock.pending(), 1)

  // Used within the period: kept through it, checked again one period later.
  pool.give(pool.take(2000))
  clock.fire()
  t.equal(pool.keptBytes, a.byteLength + 64, 'kept after a period in use')
  t.equal(clock.pending(), 1, 'checked again')

  // A whole period with nothing taken: let go, and no timer left behind.
  clock.fire()
  t.equal(pool.keptBytes, 0, 'let go after an idle period')
  t.equal(clock.pending(), 0, 'an idle pool schedules nothing more')
  t.not(pool.take(2000), a, 'a new buffer after the release')

  pool.give(new Uint32Array(8))
  t.equal(clock.pending(), 1, 'kept again: the timer starts again')
})
