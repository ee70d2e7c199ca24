/**
 * `npm start`: local infrastructure up (if needed), tables migrated, schemas registered, every
 * processor and the API running in this process, and on the first run the sample data loaded and
 * applied, with progress for each long step. It ends by printing the URL. Ctrl-C stops the API and
 * processors (each finishes its batch), and the infrastructure services this run started
 * (services that were already running are left alone).
 */
import { loadConfig } from '../core/config.js'
import { createLogger } from '../core/logger.js'
import { sql, ident } from '../core/sql.js'
import { infraUp, infraDown } from '../infra/cli.js'
import { createRuntime, prepare, startProcessors, stopAll, apiDeps, type Stoppable } from './runtime.js'
import { ingestSample, sampleAlreadyLoaded } from './commands/ingest-sample.js'
import { makeSampleOriginals } from '../connectors/sample/originals.js'
import { groupId, entityTopic, PROCESSORS, commandTopic, RELINK, RECOUNT } from '../schemas/events/index.js'
import { buildApp } from '../api/app.js'
import { waitForCatchUp } from './catch-up.js'
import { SEARCH_INDEXER } from '../streams/search/indexer.js'
import { SEARCH_SOURCES } from '../streams/search/documents.js'
import { onShutdown } from './shutdown.js'

const cfg = loadConfig()
const log = createLogger(cfg, { pretty: process.stdout.isTTY })
const step = (m: string) => log.info(`▸ ${m}`)

step('local infrastructure: Kafka, schema registry, ClickHouse')
const startedInfra = await infraUp(cfg, (m) => log.info(m))
const rt = createRuntime(cfg, log)
const parts: Stoppable[] = []
onShutdown(async () => {
  log.info('stopping the API and processors')
  await stopAll(rt, parts)
  await rt.close()
  if (startedInfra.length) await infraDown(cfg, (m) => log.info(m), startedInfra)
})

step('tables, topics and schemas')
await prepare(rt)
step('processors: table sink, citation network, search index, alerts and webhooks')
parts.push(...await startProcessors(rt))
const api = apiDeps(rt)
const app = await buildApp(api)
await app.listen({ port: cfg.port, host: cfg.host })
parts.push({ stop: async () => { await app.close(); await api.db.close() } })

if (!(await sampleAlreadyLoaded(rt))) {
  step(`first run: publishing the sample data set (courts, judges, dockets, ${cfg.sampleOpinions.toLocaleString('en-US')} opinions)`)
  // A few real audio originals for the audio role, made meanwhile (ffmpeg may need installing first).
  void makeSampleOriginals(cfg.audio.storageDir, (m) => log.info(m)).catch((err) => log.warn({ err: (err as Error).message }, 'sample audio originals not made'))
  const s = await ingestSample(rt, { opinions: cfg.sampleOpinions, seed: 1 })
  log.info({ published: s.published, seconds: s.seconds }, 'sample data published')
}
step('applying what the topics hold (tables, citation network, search index)')
const entityTopics = rt.catalogue.stored.map((r) => entityTopic(cfg, r))
await waitForCatchUp(rt.kafka, rt.clock, [
  { label: 'citation network', group: groupId(cfg, PROCESSORS.citationNetwork), topics: async () => [entityTopic(cfg, 'opinions'), entityTopic(cfg, 'citations'), commandTopic(cfg, RELINK.name), commandTopic(cfg, RECOUNT.name)] },
  { label: 'tables', group: groupId(cfg, PROCESSORS.tableSink), topics: async () => entityTopics },
  { label: 'search index', group: groupId(cfg, SEARCH_INDEXER), topics: async () => [...new Set(Object.values(SEARCH_SOURCES).flat())].filter((r) => rt.catalogue.has(r)).map((r) => entityTopic(cfg, r)) },
], { progress: process.stderr.isTTY || undefined })

const count = async (table: string) => Number((await rt.db.query<{ n: number }>(sql`SELECT count() AS n FROM ${ident(cfg.clickhouseDatabase)}.${ident(table)} FINAL`))[0]?.n ?? 0)
const [opinions, edges, searchable] = await Promise.all([count('opinions'), count('opinions_cited'), count('search_results')])
log.info(`ready: ${opinions.toLocaleString('en-US')} opinions, ${edges.toLocaleString('en-US')} citation edges, ${searchable.toLocaleString('en-US')} search documents`)
log.info(`API: http://${cfg.host}:${cfg.port}/api/rest/v4/  (Ctrl-C stops)`)
