/**
 * Graceful shutdown of a process: on SIGTERM or SIGINT run `stop` once (processors finish and
 * commit the batch in flight, producers flush), then exit 0. A second signal exits at once.
 */
export function onShutdown(stop: () => Promise<void>, opts: { exit?: boolean } = {}): void {
  let stopping = false
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) { process.exit(130); return }
    stopping = true
    stop().then(() => { if (opts.exit !== false) process.exit(0) }, (err) => {
      console.error(`shutdown after ${signal} failed: ${(err as Error).message}`)
      process.exit(1)
    })
  }
  process.on('SIGTERM', handler)
  process.on('SIGINT', handler)
}
