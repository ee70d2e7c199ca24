/**
 * Stopping a service with signals, as users and supervisors send them: one Ctrl-C (or SIGTERM)
 * stops it cleanly; the same Ctrl-C delivered twice at once (the terminal's and npm's) still does;
 * Ctrl-C pressed again later exits at once; and a SIGTERM to the shell npm runs a script with
 * reaches the service (`exec` in package.json's scripts).
 */
import t from 'tap'
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { PROJECT_ROOT, programArgs, projectFile } from '../../../core/programs.js'


interface Run { proc: ChildProcess; out: () => string; ready: Promise<void>; exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }> }

function run(command: string, args: string[], stopMs: number): Run {
  const proc = spawn(command, args, { cwd: PROJECT_ROOT, env: { ...process.env, STOP_MS: String(stopMs) }, stdio: ['ignore', 'pipe', 'inherit'] })
  let out = ''
  const ready = new Promise<void>((resolve) => proc.stdout!.on('data', (d: Buffer) => { out += d.toString(); if (out.includes('ready')) resolve() }))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => proc.on('exit', (code, signal) => resolve({ code, signal })))
  return { proc, out: () => out, ready, exited }
}
const service = (stopMs: number) => run(process.execPath, programArgs('test/helpers/shutdown-child.ts'), stopMs)
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

t.test('one SIGINT or SIGTERM stops it cleanly', async (t) => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    const s = service(300)
    await s.ready
    s.proc.kill(signal)
    t.same(await s.exited, { code: 0, signal: null }, `${signal}: exit 0`)
    t.match(s.out(), /stopping\nstopped\n/, `${signal}: the stop ran to its end`)
  }
})

t.test('the same Ctrl-C delivered twice at once stops it cleanly', async (t) => {
  const s = service(1500)
  await s.ready
  s.proc.kill('SIGINT')
  await sleep(50)
  s.proc.kill('SIGINT')
  t.same(await s.exited, { code: 0, signal: null }, 'exit 0')
  t.match(s.out(), /stopped/, 'the stop ran to its end')
})

t.test('Ctrl-C pressed again a moment later exits at once', async (t) => {
  const s = service(10_000)
  await s.ready
  s.proc.kill('SIGINT')
  await sleep(1200)
  const at = Date.now()
  s.proc.kill('SIGINT')
  t.same(await s.exited, { code: 130, signal: null }, 'exit 130')
  t.ok(Date.now() - at < 2000, 'without waiting for the stop')
  t.notMatch(s.out(), /stopped/, 'the stop was cut short')
})

t.test('a SIGTERM to the shell of an npm script reaches the service', async (t) => {
  const scripts = JSON.parse(readFileSync(projectFile('package.json'), 'utf8')).scripts as Record<string, string>
  // Environment settings may come first (npm start's malloc settings): `VAR=value exec …` still execs.
  const form = /^((?:\w+=\S+ )*)exec node (--[\w=-]+ )*--import tsx /
  for (const name of ['start', 'lds']) t.match(scripts[name], form, `npm ${name} replaces its shell with node`)
  // npm runs a script as `sh -c <script>` and signals that shell; without exec the shell would
  // take the signal and leave the service running. Run as npm start's script is, its settings first.
  const settings = form.exec(scripts.start)?.[1] ?? ''
  const s = run('sh', ['-c', `${settings}exec node --import tsx ${projectFile('test/helpers/shutdown-child.ts')}`], 300)
  await s.ready
  s.proc.kill('SIGTERM')
  t.same(await s.exited, { code: 0, signal: null }, 'exit 0')
  t.match(s.out(), /stopped/, 'the stop ran to its end')
})
