/**
 * The `lds` command line. Every subcommand has --help. Connector modules load only with the
 * command that needs them, so `lds run` starts without reading the data sets.
 */
import { Command, InvalidArgumentError } from 'commander'
import { createRuntime as createRuntimeWith, prepare, startProcessors, stopAll, apiDeps, PROCESSOR_ROLES, type ProcessorRole, type Stoppable } from './runtime.js'
import { onShutdown } from './shutdown.js'
import { loadConfig } from '../core/config.js'
import { createLogger } from '../core/logger.js'

/** Command runtimes log to stderr: stdout carries only what the command prints. */
const createRuntime = () => { const cfg = loadConfig(); return createRuntimeWith(cfg, createLogger(cfg, { stderr: true })) }
import { createUser, updateUser, userVisible } from './users.js'
import { buildApp } from '../api/app.js'
import { entityTopic, groupId, PROCESSORS } from '../schemas/events/index.js'

const int = (v: string) => {
  const n = Number(v.replace(/_/g, ''))
  if (!Number.isSafeInteger(n) || n < 0) throw new InvalidArgumentError('expected a whole number')
  return n
}

/** `api`, `processors` (all of them) or single processor roles. */
function parseRoles(text: string): { api: boolean; processors: ProcessorRole[] } {
  const names = text.split(',').map((s) => s.trim()).filter(Boolean)
  const known = new Set<string>(['api', 'processors', ...PROCESSOR_ROLES])
  const bad = names.filter((n) => !known.has(n))
  if (bad.length) throw new InvalidArgumentError(`unknown role(s) ${bad.join(', ')}; known: ${[...known].join(', ')}`)
  const processors = names.includes('processors') ? [...PROCESSOR_ROLES] : PROCESSOR_ROLES.filter((r) => names.includes(r))
  return { api: names.includes('api'), processors }
}

const program = new Command('lds').description('Legal data service: ingest, processors, API and administration.')

const ingest = program.command('ingest').description('Publish data from a source to the entity topics.')
ingest.command('sample')
  .description('Publish the bundled sample data set: all courts and a seeded, generated case-law corpus.')
  .option('--opinions <n>', 'number of generated opinions', int, 10_000)
  .option('--seed <n>', 'generator seed (same seed, same data)', int, 1)
  .action(async (o: { opinions: number; seed: number }) => {
    const rt = createRuntime()
    try {
      await prepare(rt)
      const { ingestSample } = await import('./commands/ingest-sample.js')
      const s = await ingestSample(rt, { opinions: o.opinions, seed: o.seed })
      console.log(JSON.stringify(s, null, 2))
    } finally { await rt.close() }
  })
ingest.command('bulk <inputs...>')
  .description('Publish the reference\'s bulk-data files (folders of them, or files: .csv or .csv.bz2, any of its three CSV formats, all 33 tables). A snapshot over existing data updates it; an interrupted run started again with the same inputs resumes. Bad rows go to a dead-letter file; a bad file is reported and the others still load.')
  .option('--dead-letters <file>', 'where refused rows are written (JSON lines)')
  .option('--prune', 'delete the rows of each resource that its files in this run no longer hold (a full snapshot)')
  .option('--restart', 'ignore what an interrupted run of the same inputs left and start over')
  .option('--format <format>', 'the CSV format of every file instead of telling it from the content: backslash (current), backtick (2024) or csv (before 2024-07)')
  .option('--checkpoint-every <rows>', 'rows between two checkpoints of a file', int, 50_000)
  .action(async (inputs: string[], o: { deadLetters?: string; prune?: boolean; restart?: boolean; format?: string; checkpointEvery: number }) => {
    if (o.format && !['backslash', 'backtick', 'csv'].includes(o.format)) throw new InvalidArgumentError('--format takes backslash, backtick or csv')
    const rt = createRuntime()
    try {
      await prepare(rt)
      const { ingestBulk } = await import('./commands/ingest-bulk.js')
      const s = await ingestBulk(rt, inputs, { deadLetterPath: o.deadLetters, prune: o.prune, restart: o.restart, dialect: o.format as 'backslash' | undefined, checkpointEvery: o.checkpointEvery })
      for (const f of s.files) {
        console.error(`${f.file}: ${f.error ? `FAILED: ${f.error}` : 'ok'}; ${f.rows} rows${f.resumed ? ` (${f.resumed} published by the interrupted run)` : ''}, ${f.refused} refused${f.dialect ? `; ${f.dialect}` : ''}`)
      }
      console.log(JSON.stringify(s, null, 2))
      if (s.refused || s.failedFiles) process.exitCode = 2
    } finally { await rt.close() }
  })

ingest.command('mirror')
  .description('Follow another v4 API (the reference with your token, or another instance of this service) and publish its objects as upserts, resource by resource in dependency order, each list in date_modified order from the last change already mirrored (lists that cannot be ordered so are read whole, in id order). Checkpointed in Kafka: a killed mirror resumes where it was. Keeps to the request budget, waits out 429s (Retry-After), backs off on 5xx.')
  .requiredOption('--from <base-url>', 'the source API root, e.g. https://host/api/rest/v4/')
  .option('--token <token>', 'API token at the source (default: LDS_MIRROR_TOKEN)')
  .option('--resources <list>', 'comma-separated resources (default: every public list; opinions-cited only when named, the citation network derives it)')
  .option('--since <date>', 'only changes from this date_modified on (ISO 8601), for lists with no checkpoint yet')
  .option('--budget <requests>', 'requests per hour at most, the source\'s advertised rate (0: no limit, for a local source)', int, 5000)
  .option('--follow', 'keep polling for changes after the first pass')
  .option('--every <minutes>', 'minutes between two polls with --follow', (v) => { const n = Number(v); if (!(n > 0)) throw new InvalidArgumentError('expected a positive number of minutes'); return n }, 5)
  .option('--backoff <seconds>', 'first wait after a 5xx or a failed connection, doubled per retry (8 retries)', (v) => { const n = Number(v); if (!(n >= 0)) throw new InvalidArgumentError('expected seconds'); return n }, 1)
  .option('--restart', 'forget this source\'s checkpoints and read everything again')
  .option('--parallel <n>', 'date_modified ranges of a list read at once, each by its own cursor (default: 4 with --budget 0, else 1)', (v) => { const n = Number(v); if (!(Number.isInteger(n) && n >= 1 && n <= 64)) throw new InvalidArgumentError('expected a whole number from 1 to 64'); return n })
  .action(async (o: { from: string; token?: string; resources?: string; since?: string; budget: number; follow?: boolean; every: number; backoff: number; restart?: boolean; parallel?: number }) => {
    const rt = createRuntime()
    try {
      await prepare(rt)
      const { ingestMirror } = await import('./commands/ingest-mirror.js')
      const report = await ingestMirror(rt, o)
      console.log(JSON.stringify(report, null, 2))
      if (report.refused) process.exitCode = 2
    } finally { await rt.close() }
  })

const exporter = program.command('export').description('Write the current state of the tables out as files.')
exporter.command('bulk <dir>')
  .description('Write the reference\'s 33 bulk tables into <dir>: reference-csv (<file>-<date>.csv.bz2 in the reference\'s current format, loadable with its own \\COPY, plus schema.sql), parquet (<file>.parquet) or jsonl (<resource>.jsonl, what `publish` reads back); and manifest.json (rows, bytes, sha256 per file).')
  .option('--resources <list>', 'comma-separated file, table or resource names (e.g. opinions,courts); all when absent')
  .option('--format <format>', 'reference-csv, parquet or jsonl', 'reference-csv')
  .action(async (dir: string, o: { resources?: string; format: string }) => {
    const { EXPORT_FORMATS } = await import('../connectors/bulk/export/index.js')
    if (!(EXPORT_FORMATS as readonly string[]).includes(o.format)) throw new InvalidArgumentError(`unknown format ${o.format}; one of ${EXPORT_FORMATS.join(', ')}`)
    const rt = createRuntime()
    try {
      await prepare(rt)
      const { runBulkExport, manifestSummary } = await import('./commands/export-bulk.js')
      const m = await runBulkExport(rt.db, dir, { format: o.format as 'reference-csv', resources: o.resources?.split(',') })
      console.log(JSON.stringify(manifestSummary(m), null, 2))
    } finally { await rt.close() }
  })

program.command('run')
  .description(`Run service roles in this process until SIGTERM or Ctrl-C (then: stop fetching, finish and commit the batch in flight, close producers). Roles: api, processors (all of: ${PROCESSOR_ROLES.join(', ')}), or single processors. Several processes may run the same processor: they share its partitions.`)
  .option('--roles <list>', 'comma-separated roles', 'api,processors')
  .action(async (o: { roles: string }) => {
    const roles = parseRoles(o.roles)
    const rt = createRuntime()
    await prepare(rt)
    const parts: Stoppable[] = []
    if (roles.processors.length) parts.push(...await startProcessors(rt, roles.processors))
    if (roles.api) {
      const api = apiDeps(rt)
      const app = await buildApp(api)
      await app.listen({ port: rt.cfg.port, host: rt.cfg.host })
      parts.push({ stop: async () => { await app.close(); await api.db.close() } })
      rt.log.info(`API listening on http://${rt.cfg.host}:${rt.cfg.port}`)
    }
    rt.log.info({ roles: o.roles }, 'running')
    onShutdown(async () => { await stopAll(rt, parts); await rt.close() })
  })

const users = program.command('users').description('Manage API users (changes reach the API through the users topic).')
users.command('create <name>')
  .description('Create a user and print its API token (shown once; only a hash is stored).')
  .option('--write', 'allow writes (alerts, tags, prayers, archive fetch)')
  .option('--citation-rate <rate>', 'citation-lookup rate for this user, e.g. 120/min')
  .option('--rate <rates>', 'request rates replacing the default, e.g. 10/min,300/day (0/hour blocks)')
  .option('--password <password>', 'a password for HTTP Basic (stored as a scrypt hash)')
  .option('--email <address>', 'where alerts and webhook failure notices are mailed')
  .option('--auto-subscribe', 'subscribe to a docket when the service fetches it for this user')
  .action(async (name: string, o: { write?: boolean; citationRate?: string; rate?: string; password?: string; email?: string; autoSubscribe?: boolean }) => {
    await withRuntime(async (rt) => {
      const { id, token } = await createUser(rt, name, o)
      await waitVisible(rt, id)
      console.log(token)
    })
  })
users.command('set-rate <name> <rates>')
  .description('Replace a user\'s request rates at runtime (e.g. 100/min,5000/day; 0/hour blocks the account; "" restores the default).')
  .action(async (name: string, rates: string) => withRuntime(async (rt) => { await updateUser(rt, name, { rate: rates }); console.log(`rates of ${name}: ${rates || 'default'}`) }))
users.command('set-password <name> <password>')
  .description('Set (or, with "", remove) the password a user gives for HTTP Basic.')
  .action(async (name: string, password: string) => withRuntime(async (rt) => { await updateUser(rt, name, { password }); console.log(`password of ${name} ${password ? 'set' : 'removed'}`) }))
users.command('set-email <name> <address>')
  .description('Set (or, with "", remove) where a user\'s alerts and webhook failure notices are mailed.')
  .action(async (name: string, email: string) => withRuntime(async (rt) => { await updateUser(rt, name, { email }); console.log(`e-mail of ${name} ${email ? 'set' : 'removed'}`) }))
users.command('deactivate <name>')
  .description('Stop a user\'s token and password from working (within the pipeline\'s latency).')
  .action(async (name: string) => withRuntime(async (rt) => { await updateUser(rt, name, { active: false }); console.log(`${name} deactivated`) }))

async function withRuntime(fn: (rt: ReturnType<typeof createRuntime>) => Promise<void>) {
  const rt = createRuntime()
  try { await prepare(rt); await fn(rt) } finally { await rt.close() }
}

async function waitVisible(rt: ReturnType<typeof createRuntime>, id: number) {
  for (let i = 0; i < 50; i++) { if (await userVisible(rt, id)) return; await new Promise((r) => setTimeout(r, 200)) }
  console.error('note: the user is published; it works once the processors (npm start) have applied it')
}

program.command('publish <resource> [file]')
  .description('Publish JSON lines (a file, or - / nothing for stdin) as upserts of a resource: one object per line in its v4 field names, related objects by id. Bad lines are reported with their number; the rest are published.')
  .action(async (resource: string, file: string | undefined) => withRuntime(async (rt) => {
    const { publishLines, openInput } = await import('./commands/publish.js')
    const report = await publishLines(rt, resource, openInput(file))
    console.log(JSON.stringify(report, null, 2))
    if (report.refused.length) process.exitCode = 2
  }))

const consumers = program.command('consumers').description('Outside readers of the public topics: SCRAM users on the SASL listener (LDS_KAFKA_SASL_PORT) that may read the public topics and commit offsets in their own groups, nothing else.')
consumers.command('create <name>')
  .description('Create a consumer and print its client settings (the password is shown once): READ on each public topic, groups named <name>.… for its offsets.')
  .option('--json', 'one line {"brokers", "sasl", "ssl", "topics"} that new Kafka(…) of kafkajs takes as it is')
  .option('--rotate', 'the consumer exists: give it a new password and grant this deployment\'s current public topics again')
  .action(async (name: string, o: { json?: boolean; rotate?: boolean }) => withConsumers(async (deps) => {
    const { createConsumer, consumerSettingsText } = await import('./commands/consumers.js')
    const settings = await createConsumer(deps, name, { rotate: o.rotate }, (m) => console.error(m))
    console.log(o.json ? JSON.stringify(settings) : consumerSettingsText(settings))
  }))
consumers.command('revoke <name>')
  .description('Delete a consumer\'s credential (it can no longer connect) and its ACLs (open connections lose access).')
  .action(async (name: string) => withConsumers(async (deps) => {
    const { revokeConsumer } = await import('./commands/consumers.js')
    const r = await revokeConsumer(deps, name)
    console.log(`consumer ${name} revoked: ${r.credential ? 'credential deleted' : 'it had no credential'}, ${r.acls} ACLs deleted`)
  }))
consumers.command('list')
  .description('List the SCRAM users and how many of this deployment\'s public topics each may read.')
  .action(async () => withConsumers(async (deps) => {
    const { listConsumers } = await import('./commands/consumers.js')
    for (const c of await listConsumers(deps)) console.log(`${c.name}\t${c.topics} public topics`)
  }))

/** Consumers need the runtime's Kafka and catalogue, not the tables: no migration. */
async function withConsumers(fn: (deps: import('./commands/consumers.js').ConsumerDeps) => Promise<void>) {
  const rt = createRuntime()
  try {
    const { scramUsers } = await import('../infra/scram-users.js')
    await fn({ ...rt, scram: scramUsers(rt.cfg, (m) => console.error(m)) })
  } finally { await rt.close() }
}

const webhooks = program.command('webhooks').description('Manage webhook endpoints (also at /api/rest/v4/webhooks/).')
webhooks.command('add <user> <url>')
  .description('Add an endpoint for a user; prints it with its signing secret.')
  .requiredOption('--event-type <n>', '1 docket alert, 2 search alert, 3 archive fetch, 4 old docket alerts report, 5 pray and pay', int)
  .option('--version <n>', 'event format: 1 or 2', int, 2)
  .option('--enabled', 'deliver at once (endpoints start disabled otherwise)')
  .action(async (user: string, url: string, o: { eventType: number; version: number; enabled?: boolean }) => withRuntime(async (rt) => {
    const { addWebhook } = await import('./webhooks.js')
    console.log(JSON.stringify(await addWebhook(rt, user, url, { eventType: o.eventType, version: o.version, enabled: !!o.enabled }), null, 2))
  }))
webhooks.command('list [user]').description('List endpoints (of one user, or all).').action(async (user: string | undefined) => withRuntime(async (rt) => {
  const { listWebhooks } = await import('./webhooks.js')
  for (const w of await listWebhooks(rt, user)) console.log(`${String(w.id)}\tuser ${String(w.user_id)}\ttype ${String(w.event_type)}\tv${String(w.version)}\t${w.enabled ? 'enabled' : 'disabled'}\tfailures ${String(w.failure_count)}\t${String(w.url)}`)
}))
webhooks.command('enable <id>').description('Enable an endpoint; events that failed in the last two days are sent again.').action(async (id: string) => withRuntime(async (rt) => {
  const { setWebhookEnabled } = await import('./webhooks.js')
  await setWebhookEnabled(rt, int(id), true)
  console.log(`webhook ${id} enabled`)
}))
webhooks.command('disable <id>').description('Disable an endpoint: its events are held, not sent.').action(async (id: string) => withRuntime(async (rt) => {
  const { setWebhookEnabled } = await import('./webhooks.js')
  await setWebhookEnabled(rt, int(id), false)
  console.log(`webhook ${id} disabled`)
}))

const search = program.command('search').description('Maintain the search index.')
search.command('compact [type]')
  .description('Drop the postings of replaced and deleted documents from the search index (all types, or one: o, r, d, rd, p, oa), and wait until done. The search-index role does this by itself when their share reaches LDS_SEARCH_COMPACT_SHARE.')
  .action(async (type: string | undefined) => withRuntime(async (rt) => {
    const { compactSearchType, compactSearchIndex } = await import('../streams/search/compaction.js')
    const { SEARCH_TYPES } = await import('../domain/search/index.js')
    if (type !== undefined && !(type in SEARCH_TYPES)) throw new InvalidArgumentError(`unknown search type ${JSON.stringify(type)}: one of ${Object.keys(SEARCH_TYPES).join(', ')}`)
    const started = Date.now()
    const progress = (parts: number) => { if (process.stderr.isTTY) process.stderr.write(`\r${parts} parts left to rewrite   `) }
    const o = { minShare: 0, wait: progress }
    const checks = type ? [await compactSearchType(rt.db, type as keyof typeof SEARCH_TYPES, o)] : await compactSearchIndex(rt.db, o)
    if (process.stderr.isTTY) process.stderr.write('\r\x1b[K')
    for (const c of checks) {
      const share = c.postings ? ` (${((100 * c.stale) / c.postings).toFixed(1)} % of a sample of ${c.postings})` : ''
      console.log(`${c.type}: ${c.running ? `a compaction is already running${c.failure ? ` and failing: ${c.failure}` : ''}` : c.compacted ? `compacted, ${c.stale} stale postings in the sample${share}` : 'nothing stale'}`)
    }
    console.log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  }))

const readModel = program.command('read-model').description('Inspect the API\'s read model (the LMDB store each API host keeps).')
readModel.command('stats')
  .description('Walk the read model read-only (an API may run on it) and print, per resource, rows and bytes of the stored rows (keys + values), of the large texts they still hold, of rendered details and list entries, and every sub-database\'s size.')
  .option('--path <folder>', 'the read-model folder (default: the one of LDS_DATA_DIR, LDS_TOPIC_PREFIX and CLICKHOUSE_DATABASE)')
  .option('--project <rows>', 'also project the bytes to these row counts, e.g. opinions=10000000,dockets=30000000 (bytes per row × rows; resources not named scale with the first)')
  .option('--json', 'print the figures as JSON')
  .action(async (o: { path?: string; project?: string; json?: boolean }) => {
    const { readModelStats, storeFileIn, formatStats, parseProjection, project } = await import('./read-model-stats.js')
    const { readModelPath } = await import('../api/read-model/consumer.js')
    const { catalogue } = await import('../schemas/catalogue/index.js')
    const rows = o.project ? parseProjection(o.project) : undefined
    const stats = readModelStats(storeFileIn(o.path ?? readModelPath(loadConfig())), catalogue)
    const projection = rows ? { rows, result: project(stats, rows) } : undefined
    if (o.json) console.log(JSON.stringify(projection ? { ...stats, projection: { rows: Object.fromEntries(rows!), totalBytes: Math.round(projection.result.total), bytes: Object.fromEntries([...projection.result.byResource].map(([k, v]) => [k, Math.round(v)])) } } : stats))
    else console.log(formatStats(stats, projection))
  })

program.command('migrate').description('Create or update the ClickHouse tables and register topic schemas.').action(async () => {
  const rt = createRuntime()
  try { await prepare(rt) } finally { await rt.close() }
})

program.command('replay <resource>')
  .description('Re-apply a resource topic from its beginning: resets the table sink offsets (stop the processors first). Harmless to state: versions make replays idempotent.')
  .action(async (resource: string) => {
    const rt = createRuntime()
    const admin = rt.kafka.admin()
    await admin.connect()
    try {
      rt.catalogue.get(resource)
      await admin.resetOffsets({ groupId: groupId(rt.cfg, PROCESSORS.tableSink), topic: entityTopic(rt.cfg, resource), earliest: true })
      console.log(`offsets of ${entityTopic(rt.cfg, resource)} reset; the table sink replays it when it next starts`)
    } finally { await admin.disconnect(); await rt.close() }
  })

// A failure a user can act on (a dependency down, a bad file) is one clear line, not a stack trace;
// LDS_DEBUG=1 shows the trace.
try {
  await program.parseAsync(process.argv)
} catch (err) {
  const e = err as Error
  console.error(process.env.LDS_DEBUG ? e : `lds: ${e.message}`)
  process.exit(1)
}
