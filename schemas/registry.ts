/** Registers the Avro schema of every entity topic with the schema registry. */
import pMap from 'p-map'
import type { Registry } from '../core/registry.js'
import type { Config } from '../core/config.js'
import type { Catalogue } from './catalogue/index.js'
import { toAvro } from './avro.js'
import { entityTopic, valueSubject } from './events/names.js'

/** Registrations in flight at once: enough to be quick, few enough not to swamp a starting registry. */
const CONCURRENCY = 4

/** Idempotent: a schema the registry already holds answers its existing id. */
export async function registerEntitySchemas(cfg: Pick<Config, 'topicPrefix'>, registry: Registry, cat: Catalogue): Promise<Map<string, number>> {
  const ids = await pMap(cat.stored, async (r) => [r.name, await registry.registerAvro(valueSubject(entityTopic(cfg, r)), toAvro(cat, r))] as const, { concurrency: CONCURRENCY })
  return new Map(ids)
}
