/**
 * Command topics: work one processor asks of another (or of another instance of itself), keyed by
 * the entity it concerns so that it lands in the partition of that entity. Values are Avro in the
 * registry's wire format, like entity events.
 */
import avro from 'avsc'
import type { Config } from '../../core/config.js'
import type { Registry } from '../../core/registry.js'
import { commandTopic, valueSubject } from './names.js'
import { wireEncode, createDecoder } from './wire.js'
import { UndecodableEvent } from './envelope.js'

export interface CommandSpec<T> { name: string; schema: avro.Schema; key(value: T): string }

/** Opinions the citation network should link again: a citation or cluster they wait on arrived. */
export interface RelinkCommand { opinion_id: number; reason: string }
export const RELINK: CommandSpec<RelinkCommand> = {
  name: 'citation-relink',
  schema: {
    type: 'record', name: 'CitationRelink', namespace: 'org.lds.command',
    doc: 'Link this opinion\'s citations again: something it cited has arrived.',
    fields: [{ name: 'opinion_id', type: 'long' }, { name: 'reason', type: 'string' }],
  },
  key: (v) => String(v.opinion_id),
}

/** Clusters whose citers changed: count them again (keyed by cluster, so one instance counts each). */
export interface RecountCommand { cluster_id: number }
export const RECOUNT: CommandSpec<RecountCommand> = {
  name: 'citation-recount',
  schema: {
    type: 'record', name: 'CitationRecount', namespace: 'org.lds.command',
    doc: 'Count again the opinions citing this cluster.',
    fields: [{ name: 'cluster_id', type: 'long' }],
  },
  key: (v) => String(v.cluster_id),
}

export interface CommandCodec<T> {
  readonly topic: string
  encode(value: T): Buffer
  decode(buf: Buffer | null): Promise<T>
}

export async function createCommandCodec<T>(cfg: Pick<Config, 'topicPrefix'>, registry: Registry, spec: CommandSpec<T>): Promise<CommandCodec<T>> {
  return createTopicCodec(commandTopic(cfg, spec.name), registry, spec)
}

/** A codec for any topic whose values follow one Avro schema (commands, watermarks). */
export async function createTopicCodec<T>(topic: string, registry: Registry, spec: Pick<CommandSpec<T>, 'name' | 'schema'>): Promise<CommandCodec<T>> {
  const type = avro.Type.forSchema(spec.schema)
  const id = await registry.registerAvro(valueSubject(topic), spec.schema as object)
  const decode = createDecoder(registry)
  return {
    topic,
    encode: (value) => wireEncode(id, type.toBuffer(value)),
    async decode(buf) {
      const v = await decode(buf)
      if (!type.isValid(v)) throw new UndecodableEvent(`not a ${spec.name} command`)
      return v as T
    },
  }
}
