/**
 * The composition root: builds the clients from one Config and starts roles (schema setup,
 * processors, API). Every process entry point (npm start, the CLI, tests) goes through here.
 */
import type { Kafka } from 'kafkajs'
import { loadConfig, type Config } from '../core/config.js'
import { createLogger, type Logger } from '../core/logger.js'
import { createKafka } from '../core/kafka.js'
import { createRegistry, type SchemaRegistry } from '../core/registry.js'
import { createDb, type Db } from '../core/clickhouse.js'
import { catalogue, type Catalogue } from '../schemas/catalogue/index.js'
import { migrate } from '../schemas/migrate.js'
import { registerEntitySchemas } from '../schemas/registry.js'
import { startTableSink } from '../streams/table-sink.js'
import { startCitationNetwork, ensureCitationState } from '../streams/citation-network.js'
import { createPublisher, type Publisher } from '../connectors/publisher.js'

export interface Runtime {
  cfg: Config; log: Logger; kafka: Kafka; registry: SchemaRegistry; db: Db; catalogue: Catalogue
  close(): Promise<void>
}

export function createRuntime(cfg: Config = loadConfig(), log: Logger = createLogger(cfg)): Runtime {
  const db = createDb(cfg)
  return {
    cfg, log, db, catalogue,
    kafka: createKafka(cfg, log),
    registry: createRegistry(cfg),
    close: () => db.close(),
  }
}

/** Tables migrated and topic schemas registered: safe to run on every start. */
export async function prepare(rt: Runtime): Promise<void> {
  const admin = createDb(rt.cfg, { useDatabase: false })
  try {
    await migrate(admin, rt.catalogue, (m) => rt.log.info(m))
  } finally { await admin.close() }
  await registerEntitySchemas(rt.cfg, rt.registry, rt.catalogue)
  await ensureCitationState(rt.db)
}

export interface Stoppable { stop(): Promise<void> }

/** Every processor, in one process. Stopping them stops the citation network's publisher last. */
export async function startProcessors(rt: Runtime): Promise<Stoppable[]> {
  const publisher = await openPublisher(rt)
  const sink = await startTableSink(rt)
  const network = await startCitationNetwork({ ...rt, publisher })
  return [sink, network, publisher]
}

export async function openPublisher(rt: Runtime, onInvalid?: (resource: string, record: Record<string, unknown>, reason: string) => void): Promise<Publisher> {
  const pub = createPublisher({ ...rt, onInvalid })
  await pub.start()
  return pub
}
