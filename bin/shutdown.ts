/**
 * Graceful shutdown of a process: on SIGTERM or SIGINT run `stop` once (processors finish and
 * commit the batch in flight, producers flush), then exit 0. A signal a second or more after the
 * first exits at once (Ctrl-C pressed again); one sooner is the same request delivered twice: a
 * terminal's Ctrl-C reaches the whole process group, and npm passes it on to its script as well.
 */
const REPEAT_FORCES_AFTER_MS = 1000

export function onShutdown(stop: () => Promise<void>, opts: { exit?: boolean } = {}): void {
  let firstAt: number | undefined
  const handler = (signal: NodeJS.Signals) => {
    if (firstAt !== undefined) {
      if (Date.now() - firstAt >= REPEAT_FORCES_AFTER_MS) process.exit(130)
      return
    }
    firstAt = Date.now()
    stop().then(() => { if (opts.exit !== false) process.exit(0) }, (err) => {
      console.error(`shutdown after ${signal} failed: ${(err as Error).message}`)
      process.exit(1)
    })
  }
  process.on('SIGTERM', handler)
  process.on('SIGINT', handler)
}
