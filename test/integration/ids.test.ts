/**
 * Ids of created rows against the real Kafka: four processes (children with runtimes and Kafka
 * clients of their own, as four API processes have) take thousands of ids each at the same time,
 * from one deployment's ids topic. No id repeats, every id is above the old clock-based scheme's
 * ids, each process's ids increase in the order they were issued, and each process leased about
 * one block per ID_BLOCK_SIZE ids (one round trip per block). Then the same through the API: four
 * `lds run --roles api` processes on their own ports create rows at the same time.
 */
import t from 'tap'
import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { testStack, testUser, waitFor } from '../helpers/stack.js'
import { startProcessors, stopAll } from '../../bin/runtime.js'
import { ID_BASE, ID_BLOCK_SIZE, idBlock } from '../../core/ids.js'
import { idsTopic } from '../../schemas/events/names.js'
import { registryAuth } from '../../core/registry.js'
import { PROJECT_ROOT, programArgs } from '../../core/programs.js'

const PROCESSES = 4
const PER_PROCESS = 5_000

function child(env: Record<string, string>): Promise<{ ids: number[]; leases: number }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, programArgs('test/helpers/ids-child.ts'), { cwd: PROJECT_ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    proc.stdout.on('data', (b: Buffer) => { out += b.toString() })
    proc.on('error', reject)
    proc.on('exit', (code) => {
      if (code !== 0) { reject(new Error(`id child exited with ${code}`)); return }
      try { resolve(JSON.parse(out.trim().split('\n').pop()!)) } catch (err) { reject(err) }
    })
  })
}

t.test('four processes take ids at once: unique, above the old scheme, increasing per process', async (t) => {
  const rt = await testStack(t)
  const oldSchemeNow = Date.now() * 1000 + 999
  const env = {
    LDS_TOPIC_PREFIX: rt.cfg.topicPrefix, CLICKHOUSE_DATABASE: rt.cfg.clickhouseDatabase, LOG_LEVEL: 'error',
    IDS_COUNT: String(PER_PROCESS), IDS_WORKERS: '8', GO_AT: String(Date.now() + 4_000),
  }
  const results = await Promise.all(Array.from({ length: PROCESSES }, () => child(env)))
  const all = new Set<number>()
  for (const [i, r] of results.entries()) {
    t.equal(r.ids.length, PER_PROCESS, `process ${i}: all its ids`)
    let increasing = true
    for (let k = 1; k < r.ids.length; k++) if (!(r.ids[k] > r.ids[k - 1])) increasing = false
    t.ok(increasing, `process ${i}: ids increase in the order they were issued`)
    t.ok(r.ids.every((id) => Number.isSafeInteger(id) && id > oldSchemeNow && id >= ID_BASE), `process ${i}: above the old scheme's ids`)
    // one lease per block used, plus at most one taken ahead
    const blocks = Math.ceil(PER_PROCESS / ID_BLOCK_SIZE)
    t.ok(r.leases >= blocks && r.leases <= blocks + 1, `process ${i}: ${r.leases} leases for ${PER_PROCESS} ids`)
    for (const id of r.ids) all.add(id)
  }
  t.equal(all.size, PROCESSES * PER_PROCESS, 'no id repeats across processes')

  // every id is in the block of a lease that the ids topic holds
  const admin = rt.kafka.admin()
  await admin.connect()
  try {
    const [p] = await admin.fetchTopicOffsets(idsTopic(rt.cfg))
    const leases = Number(p.high)
    // a send retried after a broker hiccup may have landed too: its offset is a hole, never a repeat
    t.ok(leases >= results.reduce((n, r) => n + r.leases, 0), `one message per lease (${leases} messages)`)
    const top = idBlock(leases - 1).end
    t.ok([...all].every((id) => id < top), 'every id is within the leased blocks')
  } finally { await admin.disconnect() }

  // the runtime's own allocator (a fifth process, this one) continues above what it has not seen
  const mine = await rt.ids.next()
  t.notOk(all.has(mine))
  t.ok(mine > Math.max(...all), 'a later lease is above every earlier one')
})

/** A port nothing listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.on('error', reject)
    srv.listen(0, '127.0.0.1', () => { const { port } = srv.address() as { port: number }; srv.close(() => resolve(port)) })
  })
}

t.test('four API processes create rows at the same time: unique ids, increasing per process', async (t) => {
  const rt = await testStack(t)
  const streams = await startProcessors(rt, ['table-sink'])
  t.teardown(() => stopAll(rt, streams))
  const token = await testUser(rt, 'alice', { write: true })
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lds-ids-'))
  const children: ChildProcess[] = []
  const exited: Promise<unknown>[] = []
  try {
    const ports = await Promise.all(Array.from({ length: PROCESSES }, () => freePort()))
    const login = registryAuth(rt.cfg)
    const registryLoginEnv: Record<string, string> = login ? { SCHEMA_REGISTRY_USER: login.username, SCHEMA_REGISTRY_PASSWORD: login.password } : {}
    for (const [i, port] of ports.entries()) {
      const proc = spawn(process.execPath, programArgs('bin/lds-cli.ts', ['run', '--roles', 'api']), {
        cwd: PROJECT_ROOT, stdio: ['ignore', 'ignore', 'inherit'],
        // read models of their own, as separate hosts have (so the registry login is given, not found beside the data)
        env: { ...process.env, ...registryLoginEnv, LDS_TOPIC_PREFIX: rt.cfg.topicPrefix, CLICKHOUSE_DATABASE: rt.cfg.clickhouseDatabase, PORT: String(port), LDS_DATA_DIR: path.join(dataDir, String(i)), LOG_LEVEL: 'error' },
      })
      children.push(proc)
      exited.push(new Promise((r) => proc.on('exit', r)))
    }
    const headers = { authorization: `Token ${token}`, 'content-type': 'application/json' }
    const base = (port: number) => `http://127.0.0.1:${port}/api/rest/v4/tags/`
    // each API is up and its read model knows the user
    await Promise.all(ports.map((port) => waitFor(async () => (await fetch(base(port), { headers })).status === 200, `the API on ${port} with the user`, 180_000, 250)))
    const oldSchemeNow = Date.now() * 1000 + 999
    const PER_API = 25
    const made = await Promise.all(ports.map(async (port, i) => {
      const got: number[] = []
      for (let k = 0; k < PER_API; k++) {
        const r = await fetch(base(port), { method: 'POST', headers, body: JSON.stringify({ name: `api-${i}-${k}` }) })
        if (r.status !== 201) throw new Error(`POST on ${port}: ${r.status} ${await r.text()}`)
        got.push(((await r.json()) as { id: number }).id)
      }
      return got
    }))
    for (const [i, got] of made.entries()) {
      t.ok(got.every((id, k) => k === 0 || id > got[k - 1]), `API ${i}: its ids increase`)
      t.ok(got.every((id) => Number.isSafeInteger(id) && id >= ID_BASE && id > oldSchemeNow), `API ${i}: above every old id`)
    }
    t.equal(new Set(made.flat()).size, PROCESSES * PER_API, 'no id repeats across the four APIs')
    // every row is there: none was replaced by another with the same id
    const listed = await waitFor(async () => {
      const r = await (await fetch(`${base(ports[0])}?page_size=100&order_by=-id`, { headers })).json() as { results: { id: number }[] }
      return r.results.length === PROCESSES * PER_API && r.results
    }, 'every tag listed', 60_000, 250)
    t.same(listed.map((x) => x.id), [...made.flat()].sort((a, b) => b - a), 'all rows listed, newest first by -id')
  } finally {
    for (const c of children) c.kill('SIGTERM')
    await Promise.race([Promise.all(exited), new Promise((r) => setTimeout(r, 30_000))])
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL')
    rmSync(dataDir, { recursive: true, force: true })
  }
})
