/**
 * A process that stops gracefully (bin/shutdown.ts), for test/unit/core/shutdown.test.ts: prints
 * "ready", and on a signal "stopping", then after STOP_MS "stopped" before it exits.
 *   node --import tsx test/helpers/shutdown-child.ts
 */
import { onShutdown } from '../../bin/shutdown.js'

const stopMs = Number(process.env.STOP_MS ?? 500)
onShutdown(async () => {
  process.stdout.write('stopping\n')
  await new Promise((resolve) => setTimeout(resolve, stopMs))
  process.stdout.write('stopped\n')
})
setInterval(() => {}, 60_000)
process.stdout.write('ready\n')
