/**
 * The scheduler's loop runs a job once in every period, also when the wall clock reads a little
 * behind the timers (Node's timers run on a monotonic clock: one can fire a millisecond before
 * Date.now() reaches the moment it waited for) and a run's bookkeeping takes a few milliseconds.
 */
import t from 'tap'
import { everyPeriod } from '../../../streams/alerts/scheduler.js'

const PERIOD = 40

async function periodsSeen(clockLagMs: number, tickMs: number, periods: number): Promise<number[]> {
  const clock = { now: () => Date.now() - clockLagMs }
  const controller = new AbortController()
  const seen: number[] = []
  const start = Math.floor(clock.now() / PERIOD)
  const loop = everyPeriod(PERIOD, clock, controller.signal, async (now) => {
    const period = Math.floor(now / PERIOD)
    if (seen.at(-1) !== period) seen.push(period)
    if (period - start >= periods) controller.abort()
    await new Promise((r) => setTimeout(r, tickMs))
  })
  await loop
  return seen.map((p) => p - start)
}

t.test('every period gets its run when the clock reads behind the timers', async (t) => {
  const seen = await periodsSeen(3, 5, 12)
  t.same(seen, Array.from({ length: 13 }, (_, i) => i), 'no period skipped')
})

t.test('every period gets its run when the clock is exact', async (t) => {
  const seen = await periodsSeen(0, 5, 8)
  t.same(seen, Array.from({ length: 9 }, (_, i) => i))
})

t.test('a run longer than its period does not run the same period twice; the next one starts at once', async (t) => {
  const clock = { now: () => Date.now() }
  const controller = new AbortController()
  const times: number[] = []
  await everyPeriod(PERIOD, clock, controller.signal, async (now) => {
    times.push(now)
    if (times.length === 3) return controller.abort()
    await new Promise((r) => setTimeout(r, PERIOD * 1.5))
  })
  const periods = times.map((n) => Math.floor(n / PERIOD))
  t.equal(new Set(periods).size, periods.length, 'each run in a period of its own')
})
