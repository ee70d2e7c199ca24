/** Registers the Avro schema of every entity topic with the schema registry. */
import pMap from 'p-map'
import type { Registry } from './registry.js'
import type { Config } from './config.js'
import type { Catalogue } from '../schemas/catalogue/index.js'
import { toAvro } from '../schemas/avro.js'
import { entityTopic, valueSubject } from '../schemas/events/names.js'

/** Registrations in flight at once: enough to be quick, few enough not to swamp a starting registry. */
const CONCURRENCY = 8

/** Registrations done by this process, per registry client, catalogue and topic prefix. */
const done = new WeakMap<Registry, WeakMap<Catalogue, Map<string, Promise<Map<string, number>>>>>()

/**
 * Idempotent: a schema the registry already holds answers its existing id. Once per process (per
 * client, catalogue and prefix): an API start would otherwise register every schema twice, in
 * `prepare` and again when its publisher opens.
 */
export function registerEntitySchemas(cfg: Pick<Config, 'topicPrefix'>, registry: Registry, cat: Catalogue): Promise<Map<string, number>> {
  let byCat = done.get(registry)
  if (!byCat) { byCat = new WeakMap(); done.set(registry, byCat) }
  let byPrefix = byCat.get(cat)
  if (!byPrefix) { byPrefix = new Map(); byCat.set(cat, byPrefix) }
  const memo = byPrefix
  let ids = memo.get(cfg.topicPrefix)
  if (!ids) {
    ids = pMap(cat.stored, async (r) => [r.name, await registry.registerAvro(valueSubject(entityTopic(cfg, r)), toAvro(cat, r))] as const, { concurrency: CONCURRENCY })
      .then((pairs) => new Map(pairs))
    memo.set(cfg.topicPrefix, ids)
    ids.catch(() => memo.delete(cfg.topicPrefix)) // a failure is tried again by the next caller
  }
  return ids
}

/** After subjects were deleted from the registry (a benchmark's reset): register again next time. */
export function forgetRegisteredSchemas(registry: Registry): void { done.delete(registry) }
