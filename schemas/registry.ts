/** Registers the Avro schema of every entity topic with the schema registry. */
import type { SchemaRegistry } from '../core/registry.js'
import { registerAvro } from '../core/registry.js'
import type { Config } from '../core/config.js'
import { topicName } from '../core/kafka.js'
import type { Catalogue } from './catalogue/index.js'
import type { ResourceDef } from './define.js'
import { toAvro } from './avro.js'

export const entityTopic = (cfg: Pick<Config, 'topicPrefix'>, r: ResourceDef | string) => topicName(cfg, 'entity', typeof r === 'string' ? r : r.name)

export async function registerEntitySchemas(cfg: Pick<Config, 'topicPrefix'>, registry: SchemaRegistry, cat: Catalogue): Promise<Map<string, number>> {
  const ids = new Map<string, number>()
  await Promise.all(cat.resources.map(async (r) => {
    ids.set(r.name, await registerAvro(registry, `${entityTopic(cfg, r)}-value`, toAvro(cat, r)))
  }))
  return ids
}
