/**
 * `lds ingest mirror` between two instances of the service on one machine: A holds a small sample
 * and serves it behind a proxy that answers 429 (with Retry-After) and 503 at random; B is filled
 * only by the mirror, run as a child process. The mirror is SIGKILLed midway and started again;
 * then every mirrored list and a sample of details answer the same through both APIs (URLs
 * differing only by host), and a docket changed in A reaches B within one `--follow` poll.
 */
import t from 'tap'
import { spawn, type ChildProcess } from 'node:child_process'
import { startInstance, type Instance } from '../helpers/mirror-instance.js'
import { startFlakyProxy } from '../helpers/flaky-proxy.js'
import { waitFor, countFinal } from '../helpers/stack.js'
import { loadCourts } from '../../connectors/sample/courts.js'
import { generateSample } from '../../connectors/sample/generator.js'
import { openPublisher } from '../../core/events/publisher.js'
import { planMirror } from '../../connectors/mirror/plan.js'
import { USER_AGENT } from '../../connectors/mirror/source.js'
import { toMirrorRecords } from '../../connectors/mirror/records.js'
import { catalogue } from '../../schemas/catalogue/index.js'
import { programArgs } from '../../core/programs.js'

const SAMPLE_COURTS = ['scotus', 'ca2', 'nysd', 'nyappdiv']

interface Run { child: ChildProcess; stderr: string[]; stdout: string[]; exited: Promise<number | null> }

function runMirror(target: Instance, from: string, token: string, extra: string[] = []): Run {
  const child = spawn(process.execPath, programArgs('bin/lds-cli.ts', ['ingest', 'mirror', '--from', from, '--token', token, '--budget', '0', '--backoff', '0.05', ...extra]), {
    env: { ...process.env, LDS_TOPIC_PREFIX: target.rt.cfg.topicPrefix, CLICKHOUSE_DATABASE: target.rt.cfg.clickhouseDatabase, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const run: Run = { child, stderr: [], stdout: [], exited: new Promise((resolve) => child.on('exit', (code) => resolve(code))) }
  child.stderr!.on('data', (d: Buffer) => run.stderr.push(d.toString()))
  child.stdout!.on('data', (d: Buffer) => run.stdout.push(d.toString()))
  return run
}

/** Every object of a list, page by page, in a fixed order. */
async function wholeList(api: Instance, path: string, order: string | undefined): Promise<unknown[]> {
  const out: unknown[] = []
  let url: string | null = `/api/rest/v4/${path}/${order ? `?order_by=${order}` : ''}`
  while (url) {
    const res = await api.get(url)
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${String(res.body).slice(0, 200)}`)
    out.push(...res.body.results)
    url = res.body.next
  }
  return out
}

/** A few courts and the generated case law, judges and dockets around them (about 2,500 records). */
async function loadSmallSample(a: Instance): Promise<Record<string, number>> {
  const courts = loadCourts().filter((c) => SAMPLE_COURTS.includes(String(c.id)))
  const pub = await openPublisher(a.rt)
  const counts: Record<string, number> = {}
  try {
    for (const c of courts) await pub.upsert('courts', c)
    for (const { resource, record } of generateSample({ seed: 5, opinions: 12, courts, today: '2026-11-01' })) {
      await pub.upsert(resource, record)
      counts[resource] = (counts[resource] ?? 0) + 1
    }
  } finally { await pub.stop() }
  t.equal(pub.stats.invalid, 0, 'the sample is valid')
  return { ...counts, courts: courts.length }
}

const hostless = (v: unknown) => JSON.parse(JSON.stringify(v).replace(/http:\/\/127\.0\.0\.1:\d+\//g, 'http://host/'))

t.test('a mirror of one instance into another', async (t) => {
  const a = await startInstance(t, 'a')
  const b = await startInstance(t, 'b')
  const sample = await loadSmallSample(a)
  await waitFor(async () => {
    for (const [resource, n] of Object.entries(sample)) if ((await countFinal(a.rt, catalogue.get(resource).table)) !== n) return false
    return true
  }, 'the whole sample applied in A', 180_000, 500)

  const steps = planMirror(catalogue)
  const orderOf = (name: string) => { const r = catalogue.get(name); return r.orderings.includes('id') ? 'id' : undefined }
  // A's objects show related sets its read model may still be applying after the sink is done (a
  // docket's clusters): the lists are taken once two readings a second apart agree.
  const listsOfA = new Map<string, unknown[]>()
  let previous = ''
  await waitFor(async () => {
    for (const s of steps) listsOfA.set(s.path, await wholeList(a, s.path, orderOf(s.resource.name)))
    const now = JSON.stringify([...listsOfA])
    const settled = now === previous
    previous = now
    return settled
  }, 'the lists of A settled', 60_000, 1000)
  const total = [...listsOfA.values()].reduce((n, l) => n + l.length, 0)

  const proxy = await startFlakyProxy(a.root, { throttleShare: 0.03, unavailableShare: 0.08, retryAfterSeconds: 1, seed: 7 })
  t.teardown(() => proxy.close())

  // First run: killed once it has read a good part of the source.
  const first = runMirror(b, proxy.root, a.token)
  t.teardown(() => { first.child.kill('SIGKILL') })
  await waitFor(() => proxy.stats.forwarded >= 25 || first.child.exitCode !== null, 'the first run halfway', 300_000, 20)
  first.child.kill('SIGKILL')
  t.equal(await first.exited, null, `the first run was killed midway (stderr: ${first.stderr.join('').slice(-500)})`)

  // Second run: resumes, then follows.
  const second = runMirror(b, proxy.root, a.token, ['--follow', '--every', '0.05'])
  t.teardown(() => { second.child.kill('SIGKILL') })
  const countOf = async (api: Instance, path: string) => { const res = await api.get(`/api/rest/v4/${path}/?count=on`); return res.status === 200 ? res.body.count as number : `${res.status}` }
  let behind: string[] = []
  await waitFor(async () => {
    behind = []
    for (const s of steps) {
      const [inB, inA] = [await countOf(b, s.path), listsOfA.get(s.path)!.length]
      if (inB !== inA) behind.push(`${s.path} ${inB}/${inA}`)
    }
    return behind.length === 0
  }, 'as many objects in every list of B as in A', 240_000, 2000)
    .catch((err: Error) => { throw new Error(`${err.message}; lists that differ: ${behind.join(', ')}; mirror: ${second.stderr.join('').slice(-1500)}`) })
  for (const s of steps) {
    const want = hostless(listsOfA.get(s.path))
    // Lists show related sets (a person's positions), which the sink may still be writing.
    await waitFor(async () => JSON.stringify(hostless(await wholeList(b, s.path, orderOf(s.resource.name)))) === JSON.stringify(want), `${s.path} in B as in A`, 20_000, 1000)
      .catch(async (err: Error) => { t.same(hostless(await wholeList(b, s.path, orderOf(s.resource.name))), want, `${s.path}: ${err.message}`) })
  }
  t.pass(`${total} objects of ${steps.length} lists equal in B and A`)

  // Details, a few per list.
  for (const s of steps) {
    const list = listsOfA.get(s.path)! as { id: string | number }[]
    for (const o of list.filter((_, i) => i % Math.max(1, Math.floor(list.length / 2)) === 0).slice(0, 2)) {
      const [da, db] = [await a.get(`/api/rest/v4/${s.path}/${o.id}/`), await b.get(`/api/rest/v4/${s.path}/${o.id}/`)]
      t.same(hostless(db.body), hostless(da.body), `${s.path}/${o.id}/ equal`)
    }
  }

  // A change in A reaches B within one poll.
  const docket = (listsOfA.get('dockets') as Record<string, unknown>[])[0]
  const pub = await openPublisher(a.rt)
  const changedAt = new Date().toISOString()
  const [{ record }] = toMirrorRecords(catalogue, catalogue.get('dockets'), (await a.get(`/api/rest/v4/dockets/${docket.id}/`)).body)
  await pub.upsert('dockets', { ...record, case_name: 'Changed v. Mirrored', date_modified: changedAt })
  await pub.stop()
  await waitFor(async () => (await a.get(`/api/rest/v4/dockets/${docket.id}/`)).body.case_name === 'Changed v. Mirrored', 'the change in A', 30_000, 200)
  const seenInA = Date.now()
  await waitFor(async () => (await b.get(`/api/rest/v4/dockets/${docket.id}/`)).body.case_name === 'Changed v. Mirrored', 'the change in B', 30_000, 200)
  t.ok(Date.now() - seenInA < 30_000, `the change reached B ${Date.now() - seenInA} ms after A showed it`)

  second.child.kill('SIGTERM')
  t.equal(await second.exited, 0, 'a followed mirror stops cleanly on SIGTERM')
  const report = JSON.parse(second.stdout.join(''))
  // Lists walked by date_modified resume; the few read in full passes are read again on every poll.
  const byChange = steps.filter((s) => s.mode !== 'id-pass')
  const again = report.resources.filter((r: { mode: string }) => r.mode !== 'id-pass').reduce((n: number, r: { records: number }) => n + r.records, 0)
  const ofThose = byChange.reduce((n, s) => n + listsOfA.get(s.path)!.length, 0)
  t.ok(again < ofThose, `the second run resumed: it published ${again} of the ${ofThose} objects of lists walked by date_modified`)
  t.ok(proxy.stats.throttled > 0 && proxy.stats.unavailable > 0, `the source answered ${proxy.stats.throttled} 429s and ${proxy.stats.unavailable} 503s`)
  t.ok(report.throttled > 0, 'the mirror waited out 429s')
  t.same([...proxy.userAgents], [USER_AGENT], 'every request names the mirror')
})
