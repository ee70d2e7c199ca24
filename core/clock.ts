/**
 * Time is a parameter. Scheduled delays go through a Clock so tests can compress a 54-hour
 * retry schedule into seconds (LDS_TIME_SCALE) or step it by hand (manualClock).
 */
export interface Clock {
  now(): number
  /** Sleep for `ms` of *scheduled* time (divided by the time scale). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>
  /** The wall-clock duration a scheduled delay takes. */
  scaled(ms: number): number
  /** Resolves once now() reaches `at` (a time already scaled, as due times are); rejects on abort. */
  until(at: number, signal?: AbortSignal): Promise<void>
}

export function systemClock(scale = 1): Clock {
  const scaled = (ms: number) => Math.max(0, Math.round(ms / scale))
  const wait = (ms: number, signal?: AbortSignal) => new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const timer = setTimeout(() => { signal?.removeEventListener('abort', onAbort); resolve() }, ms)
    const onAbort = () => { clearTimeout(timer); reject(signal?.reason) }
    signal?.addEventListener('abort', onAbort, { once: true })
  })
  return {
    now: () => Date.now(),
    scaled,
    sleep: (ms, signal) => wait(scaled(ms), signal),
    until: (at, signal) => wait(Math.max(0, at - Date.now()), signal),
  }
}

export interface ManualClock extends Clock { advance(ms: number): void }

export function manualClock(start = 0): ManualClock {
  let t = start
  const waiters: { at: number; resolve: () => void }[] = []
  const until = (at: number, signal?: AbortSignal) => new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    if (at <= t) return resolve()
    const w = { at, resolve: () => { signal?.removeEventListener('abort', onAbort); resolve() } }
    const onAbort = () => { const i = waiters.indexOf(w); if (i >= 0) waiters.splice(i, 1); reject(signal?.reason) }
    signal?.addEventListener('abort', onAbort, { once: true })
    waiters.push(w)
  })
  return {
    now: () => t,
    scaled: (ms) => ms,
    sleep: (ms) => new Promise<void>((resolve) => { waiters.push({ at: t + ms, resolve }) }),
    until,
    advance(ms) {
      t += ms
      for (let i = waiters.length - 1; i >= 0; i--) {
        if (waiters[i].at <= t) { waiters[i].resolve(); waiters.splice(i, 1) }
      }
    },
  }
}
