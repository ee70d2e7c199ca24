/**
 * Several API processes behind one port, with Node's cluster module: the primary owns the
 * listening socket and hands connections to the workers in turn; each worker is an ordinary
 * `lds run --roles api`. Chosen over HAProxy/nginx because it needs nothing installed, adds no hop,
 * and a worker that dies is replaced while the others keep serving (counters live in Redis, so a
 * user's throttle does not depend on which worker answers).
 *
 *   tsx infra/cluster/api-workers.ts <instances>
 *
 * SIGTERM or SIGINT: the workers are asked to stop (they finish their requests), then the primary exits.
 */
import cluster from 'node:cluster'
import { LOADER_ARGS, programFile } from '../../core/programs.js'

const instances = Number(process.argv[2] ?? 2)
if (!Number.isInteger(instances) || instances < 1) {
  console.error('usage: tsx infra/cluster/api-workers.ts <instances>')
  process.exit(2)
}

const say = (m: string) => process.stderr.write(`${new Date().toISOString()} api-workers[${process.pid}]: ${m}\n`)
let stopping = false
const restarts: number[] = []

cluster.setupPrimary({
  exec: programFile('bin/lds-cli.ts'),
  args: ['run', '--roles', 'api'],
  execArgv: [...LOADER_ARGS],
})

cluster.on('exit', (worker, code, sig) => {
  if (stopping) {
    if (Object.keys(cluster.workers ?? {}).length === 0) { say('all workers stopped'); process.exit(0) }
    return
  }
  // A worker that crashes is replaced; one that keeps crashing (bad config, dependency down for good) stops the launcher.
  const now = Date.now()
  restarts.push(now)
  while (restarts.length && now - restarts[0] > 60_000) restarts.shift()
  if (restarts.length > 5) { say(`workers ended ${restarts.length} times within 60 s; giving up`); process.exit(1) }
  say(`worker ${worker.process.pid} ended (${sig ?? `exit ${code}`}); starting another`)
  cluster.fork()
})

const stop = () => {
  if (stopping) return
  stopping = true
  say('stopping the workers')
  for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM')
  setTimeout(() => { say('workers still running after 20 s; leaving'); process.exit(1) }, 20_000).unref()
  if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0)
}
process.on('SIGTERM', stop)
process.on('SIGINT', stop)

for (let i = 0; i < instances; i++) cluster.fork()
say(`${instances} API workers started`)
