import t from 'tap'
import { manualClock, systemClock } from '../../../core/clock.js'

t.test('a manual clock wakes a wait when it is moved to the time, not before', async (t) => {
  const clock = manualClock(1_000)
  const woke: string[] = []
  void clock.until(1_500).then(() => woke.push('at 1500'))
  void clock.until(900).then(() => woke.push('already past'))
  await Promise.resolve()
  t.same(woke, ['already past'])
  clock.advance(499)
  await Promise.resolve()
  t.same(woke, ['already past'], 'a millisecond early: still waiting')
  clock.advance(1)
  await Promise.resolve()
  t.same(woke, ['already past', 'at 1500'])
})

t.test('an aborted wait never wakes and rejects with the reason', async (t) => {
  const clock = manualClock(0)
  const abort = new AbortController()
  const waiting = clock.until(100, abort.signal)
  abort.abort(new Error('cancelled'))
  await t.rejects(waiting, /cancelled/)
  clock.advance(200)
})

t.test('the system clock wakes at the wall-clock time, which the time scale has already shortened', async (t) => {
  const clock = systemClock(1000)
  const at = clock.now() + 30
  await clock.until(at)
  t.ok(clock.now() >= at, 'not before the time')
})
