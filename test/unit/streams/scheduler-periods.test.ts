/**
 * The scheduler's loop runs a job once in every period, also when the wall clock reads a little
 * behind the timers (Node's timers run on a monotonic clock: one can fire a millisecond before
 * Date.now() reaches the moment it waited for) and a run's bookkeeping takes a few milliseconds.
 * Time here is virtual (a clock whose waits the test moves), so a loaded machine cannot stall a
 * period away: with real 40 ms periods, a busy CI machine skipped three.
 */
import t from 'tap'
import { everyPeriod } from '../../../streams/alerts/scheduler.js'
import { systemClock } from '../../../core/clock.js'

const PERIOD = 40

/**
 * A virtual clock that starts mid-period: each run takes `runMs`; each wait ends `lagMs` before the
 * clock reaches the time it waited for. Returns the periods that got a run, from the first, and
 * the times each run was given.
 */
async function periodsSeen(o: { lagMs: number; runMs: number; until: number }): Promise<{ periods: number[]; times: number[] }> {
  let now = 1_000_017
  const clock = { now: () => now, until: async (at: number) => { now = Math.max(now, at - o.lagMs) } }
  const controller = new AbortController()
  const start = Math.floor(now / PERIOD)
  const periods: number[] = []
  const times: number[] = []
  await everyPeriod(PERIOD, clock, controller.signal, async (at) => {
    times.push(at)
    periods.push(Math.floor(at / PERIOD) - start)
    if (periods.at(-1)! >= o.until) controller.abort()
    now += o.runMs
  })
  return { periods, times }
}

t.test('every period gets its run when the clock reads behind the timers', async (t) => {
  const { periods, times } = await periodsSeen({ lagMs: 3, runMs: 5, until: 12 })
  t.same(periods, Array.from({ length: 13 }, (_, i) => i), 'no period skipped, none run twice')
  t.ok(times.slice(1).every((at) => at % PERIOD === 0), 'each run is given the start of its period')
})

t.test('every period gets its run when the clock is exact', async (t) => {
  const { periods } = await periodsSeen({ lagMs: 0, runMs: 5, until: 8 })
  t.same(periods, Array.from({ length: 9 }, (_, i) => i))
})

t.test('a run longer than its period does not run the same period twice; the next one starts at once', async (t) => {
  const { periods, times } = await periodsSeen({ lagMs: 0, runMs: PERIOD * 1.5, until: 6 })
  t.equal(new Set(periods).size, periods.length, 'each run in a period of its own')
  t.ok(times.slice(1).every((at, i) => at === times[i] + PERIOD * 1.5), 'each run starts as soon as the one before ends')
})

t.test('a real abort ends the wait at once', async (t) => {
  const controller = new AbortController()
  const t0 = Date.now()
  let runs = 0
  await everyPeriod(60_000, systemClock(), controller.signal, async () => { runs++; setTimeout(() => controller.abort(), 20) })
  t.equal(runs, 1)
  t.ok(Date.now() - t0 < 30_000, 'not a minute: the abort ended the timer')
})
