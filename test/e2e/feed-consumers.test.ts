/**
 * The consumer examples (examples/node, examples/python) as an outside user runs them: with the
 * login `lds consumers create --json` mints, over the SASL/SCRAM listener, each reads
 * the public dockets topic from the beginning into its local copy, is SIGKILLed mid-way through
 * later changes (updates and deletes among them), started again, and ends with a copy equal to
 * what the API lists: every docket, its latest case name, no deleted one.
 */
import t from 'tap'
import { spawn, execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { testStack, testUser, waitFor, countFinal } from '../helpers/stack.js'
import { startProcessors, stopAll } from '../../bin/runtime.js'
import { buildApp } from '../../api/app.js'
import { openPublisher } from '../../core/events/publisher.js'
import { entityTopic } from '../../schemas/events/names.js'
import { PROJECT_ROOT } from '../../core/config.js'
import { pythonWith } from '../helpers/python-venv.js'
import { createConsumer, revokeConsumer } from '../../bin/commands/consumers.js'
import { scramUsers } from '../../infra/scram-users.js'

t.setTimeout(600_000)

const ts = '2024-03-01T10:00:00.123456+00:00'
type Copy = Map<string, string> // docket id → case name, deleted ones left out
const DUMP_SQLITE = [
  'import json, sqlite3, sys',
  'db = sqlite3.connect(sys.argv[1])',
  'print(json.dumps({i: json.loads(e)["case_name"] for i, e in db.execute("SELECT id, entity FROM dockets WHERE deleted = 0")}))',
].join('\n')

interface Example { name: string; command: string; args: string[]; store: string; read(): Copy }

t.test('outside consumers keep an exact copy of the dockets, across a SIGKILL', async (t) => {
  const rt = await testStack(t)
  const streams = await startProcessors(rt, ['table-sink'])
  t.teardown(() => stopAll(rt, streams))
  const pub = await openPublisher(rt)
  t.teardown(() => pub.stop())
  await pub.upsert('courts', { id: 'nysd', full_name: 'S.D.N.Y.', short_name: 'S.D.N.Y.', jurisdiction: 'FD', position: 1, date_modified: ts })
  const docket = (id: number, name: string) => ({ id, court_id: 'nysd', case_name: name, docket_number: `1:26-cv-${id}`, source: 0, date_created: ts, date_modified: ts })
  for (let i = 1; i <= 400; i++) await pub.upsert('dockets', docket(i, `Doe v. Acme ${i}`))
  await pub.flush()

  const dir = mkdtempSync(path.join(tmpdir(), 'feed-consumers-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  // One outside login for both examples, as `lds consumers create <name> --json` prints it.
  const name = `${rt.cfg.topicPrefix.replace(/\.$/, '')}-follower`
  const scram = scramUsers(rt.cfg)
  t.teardown(() => revokeConsumer({ ...rt, scram }, name).catch(() => {}))
  const settingsFile = path.join(dir, 'consumer.json')
  writeFileSync(settingsFile, JSON.stringify(await createConsumer({ ...rt, scram }, name)), { mode: 0o600 })
  const python = await pythonWith(path.join(PROJECT_ROOT, 'examples/python/requirements.txt'))
  const examples: Example[] = [
    {
      name: 'node', command: process.execPath, args: [path.join(PROJECT_ROOT, 'examples/node/follow-dockets.mjs')], store: path.join(dir, 'dockets.json'),
      read() {
        const held = JSON.parse(readFileSync(this.store, 'utf8')).dockets as Record<string, { deleted?: boolean; entity?: { case_name: string } }>
        return new Map(Object.entries(held).filter(([, d]) => !d.deleted).map(([id, d]) => [id, d.entity!.case_name]))
      },
    },
    {
      name: 'python', command: python, args: [path.join(PROJECT_ROOT, 'examples/python/follow_dockets.py')], store: path.join(dir, 'dockets.sqlite'),
      read() {
        // Node 20 has no SQLite of its own: the example's Python reads its copy out as JSON.
        const dump = execFileSync(python, ['-c', DUMP_SQLITE, this.store], { encoding: 'utf8' })
        return new Map(Object.entries(JSON.parse(dump) as Record<string, string>))
      },
    },
  ]
  const env = (e: Example) => ({
    ...process.env, CONSUMER_SETTINGS: settingsFile, SCHEMA_REGISTRY_URL: rt.cfg.schemaRegistryUrl,
    TOPIC: entityTopic(rt.cfg, 'dockets'), STORE: e.store, CONSUMER_GROUP: `${name}.example-${e.name}`, EXIT_WHEN_CAUGHT_UP: '1',
  })
  const runToEnd = (e: Example) => new Promise<void>((resolve, reject) => {
    const child = spawn(e.command, e.args, { env: env(e), stdio: ['ignore', 'ignore', 'pipe'] })
    let err = ''
    child.stderr.on('data', (b: Buffer) => { err = (err + b.toString()).slice(-4000) })
    child.on('exit', (code) => code === 0 ? resolve() : reject(new Error(`${e.name} example exited ${code}: ${err}`)))
  })
  /** Starts the example and SIGKILLs it once it has applied something. */
  const runAndKill = (e: Example) => new Promise<void>((resolve) => {
    const child = spawn(e.command, e.args, { env: env(e), stdio: ['ignore', 'ignore', 'pipe'] })
    child.stderr.on('data', (b: Buffer) => { if (/changes applied/.test(b.toString())) child.kill('SIGKILL') })
    child.on('exit', () => resolve())
  })

  for (const e of examples) await runToEnd(e)
  for (const e of examples) t.equal(e.read().size, 400, `${e.name}: the first pass holds every docket`)

  // Later changes: new dockets, renamed ones, deleted ones; each consumer is killed while reading them.
  for (let i = 401; i <= 1400; i++) await pub.upsert('dockets', docket(i, `Roe v. Wade Industries ${i}`))
  for (let i = 1; i <= 1400; i += 7) await pub.upsert('dockets', docket(i, `Renamed ${i}`))
  for (let i = 5; i <= 1400; i += 13) await pub.delete('dockets', i)
  await pub.flush()
  for (const e of examples) await runAndKill(e)
  for (const e of examples) await runToEnd(e)

  const expectedCount = 1400 - Math.ceil((1400 - 4) / 13)
  await waitFor(async () => (await countFinal(rt, 'dockets')) === expectedCount, 'the sink applied everything', 120_000)
  const app = await buildApp(rt)
  t.teardown(() => app.close())
  const token = await testUser(rt, 'consumer-test', { app })
  const fromApi: Copy = new Map()
  let url: string | null = '/api/rest/v4/dockets/?order_by=id&fields=id,case_name'
  while (url) {
    const res = await app.inject({ method: 'GET', url, headers: { authorization: `Token ${token}` } })
    t.equal(res.statusCode, 200)
    const body = res.json() as { results: { id: number; case_name: string }[]; next: string | null }
    for (const d of body.results) fromApi.set(String(d.id), d.case_name)
    url = body.next ? new URL(body.next).pathname + new URL(body.next).search : null
  }
  t.equal(fromApi.size, expectedCount)
  for (const e of examples) {
    const copy = e.read()
    t.equal(copy.size, fromApi.size, `${e.name}: as many dockets as the API lists`)
    t.same([...copy].sort(), [...fromApi].sort(), `${e.name}: the same dockets with the same case names`)
  }
})
