import { SchemaRegistry, SchemaType } from '@kafkajs/confluent-schema-registry'
import type { Config } from './config.js'

export { SchemaRegistry }

/** The registry client; `host` keeps the ccompat path prefix (e.g. /apis/ccompat/v7). */
export function createRegistry(cfg: Pick<Config, 'schemaRegistryUrl'>): SchemaRegistry {
  return new SchemaRegistry({ host: cfg.schemaRegistryUrl }, { [SchemaType.AVRO]: { noAnonymousTypes: true } } as never)
}

/** Register an Avro schema under `subject` (idempotent: the registry returns the existing id). */
export async function registerAvro(registry: SchemaRegistry, subject: string, schema: object): Promise<number> {
  const { id } = await registry.register({ type: SchemaType.AVRO, schema: JSON.stringify(schema) }, { subject })
  return id
}
