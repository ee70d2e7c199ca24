/**
 * Scale-out: each processor's CPU per event at 1 and 2 instances.
 *   npx tsx bench/scale.ts [--quick] [--opinions N] [--roles table-sink,citation-network,search-index] [--search-stages setting|one]
 *
 * For each role and instance count, a fresh deployment of its own (topic prefix and database,
 * removed after), the role in that many processes (`lds run --roles <role>`, as deployed), idle
 * in their consumer groups before the sample generator publishes the same input (same size and
 * seed); each process's CPU (/proc, its process tree) from then until its groups have committed
 * the input. The figure is CPU per input event summed over the instances, and the ratio of 2
 * instances to 1 in the same run (goal ≤ 1.10: a second instance splits the work without doing
 * any twice). Each instance's idle CPU (fetch polling, heartbeats: a fixed cost per process) is
 * measured for 5 s before the input, and the figure is also given less that cost over the run, which
 * a short run does not amortize. The citation network and the search index run beside a table sink
 * in this process, unmeasured (they read what it writes). On a 2-core machine the wall-clock
 * speedup is bounded; the per-event cost is the honest figure. The machine's load average is
 * printed: other work on the cores makes CPU time noisy too (cache and frequency effects).
 *
 * The search index at 2 instances runs as deployed, with LDS_SEARCH_INSTANCES=2 (its two stages:
 * each document built by one instance); `--search-stages one` measures it without (every instance
 * builds the documents its partitions touch). Its row gives the documents built per document in the
 * index (each instance's debug line per batch, summed).
 */
import os from 'node:os'
import { parseFlags } from '../test/kit/args.js'
import { stopChildrenOnExit } from './lib/children.js'
import { fmtInt, fmtRatio, table } from './lib/stats.js'
import { measureScale, ROLES, type ScaledRole, type ScaleRun } from './lib/scale-run.js'

const flags = parseFlags('npx tsx bench/scale.ts', ({ quick }) => ({
  quick: { type: 'boolean', help: 'a small sample' },
  opinions: { type: 'number', default: quick ? 500 : 10_000, help: 'opinions of the sample generator (its courts, dockets, judges… with them)' },
  seed: { type: 'number', default: 1, help: 'the sample generator seed' },
  roles: { type: 'string', default: Object.keys(ROLES).join(','), help: 'roles to measure' },
  'search-stages': { type: 'string', default: 'setting', help: 'the search index at 2 instances: setting (LDS_SEARCH_INSTANCES=2, two stages, as deployed) or one (LDS_SEARCH_INSTANCES=1)' },
}))

stopChildrenOnExit()
const log = (s: string) => process.stdout.write(s + '\n')
const step = (s: string) => process.stderr.write(`[scale] ${s}\n`)

if (!['setting', 'one'].includes(flags['search-stages'])) { console.error('--search-stages is setting or one'); process.exit(2) }
const roles = flags.roles.split(',').map((r) => r.trim()).filter(Boolean)
for (const r of roles) if (!Object.hasOwn(ROLES, r)) { console.error(`unknown role ${r}; one of ${Object.keys(ROLES).join(', ')}`); process.exit(2) }

const perEvent = (r: ScaleRun) => r.cpuMs.reduce((a, b) => a + b, 0) * 1000 / r.events
/** The same, less what the instances would have spent idle over the run (their fixed cost per process). */
const workPerEvent = (r: ScaleRun) => r.cpuMs.reduce((a, ms, i) => a + ms - r.idleMsPerS[i] * r.seconds, 0) * 1000 / r.events
const rows: string[][] = [['role', 'events', 'µs CPU/event, 1 instance', 'µs CPU/event, 2 instances (split)', '2 ÷ 1', 'less idle: 1 / 2 / 2 ÷ 1', 'idle CPU % per instance', 'wall s (1 / 2)']]
step(`load average at start: ${os.loadavg().map((x) => x.toFixed(1)).join(' ')} on ${os.cpus().length} cores`)
for (const role of roles as ScaledRole[]) {
  const o = { opinions: flags.opinions, seed: flags.seed, log: step, searchStages: flags['search-stages'] as 'setting' | 'one' }
  const [one, two] = [await measureScale(role, 1, o), await measureScale(role, 2, o)]
  const split = two.cpuMs.map((ms) => `${Math.round(100 * ms / two.cpuMs.reduce((a, b) => a + b, 0))} %`).join(' / ')
  const perDoc = (r: ScaleRun) => (r.builds! / r.documents!).toFixed(2)
  const docs = one.documents !== undefined ? ` (${fmtInt(one.documents)} / ${fmtInt(two.documents!)} documents; builds per document ${perDoc(one)} / ${perDoc(two)}; LDS_SEARCH_INSTANCES ${one.searchInstances} / ${two.searchInstances})` : ''
  rows.push([role, `${fmtInt(one.events)} / ${fmtInt(two.events)}${docs}`, fmtInt(perEvent(one)), `${fmtInt(perEvent(two))} (${split})`, fmtRatio(perEvent(two) / perEvent(one)), `${fmtInt(workPerEvent(one))} / ${fmtInt(workPerEvent(two))} / ${fmtRatio(workPerEvent(two) / workPerEvent(one))}`, [...one.idleMsPerS, ...two.idleMsPerS].map((ms) => (ms / 10).toFixed(1)).join(' / '), `${one.seconds.toFixed(0)} / ${two.seconds.toFixed(0)}`])
  step(`${role}: ${JSON.stringify({ one, two })}`)
  // the table so far: a long run that is stopped still leaves the roles it measured
  step(`\n${table(rows)}`)
}
log(`\nCPU per input event at 1 and 2 instances (sample of ${fmtInt(flags.opinions)} opinions, seed ${flags.seed}); load average at end ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`)
log(table(rows))
