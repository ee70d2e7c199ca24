/**
 * Watermarks: after each committed insert, a sink says how far it has applied one partition of an
 * entity topic ("table-sink applied lds.entity.dockets/2 up to offset 1234"). The topic is
 * compacted by (sink, topic, partition), so it always holds the latest position of each. The API
 * reads it to invalidate cached lists and to answer a write once the change is visible in lists.
 */
import type { CommandSpec } from './commands.js'

export interface Watermark { sink: string; topic: string; partition: number; offset: string; at: number }

export const WATERMARK: Pick<CommandSpec<Watermark>, 'name' | 'schema'> & { key(w: Watermark): string } = {
  name: 'watermark',
  schema: {
    type: 'record', name: 'Watermark', namespace: 'org.lds.stream',
    doc: 'How far a sink has applied one partition of an entity topic: every offset below `offset` is in its store.',
    fields: [
      { name: 'sink', type: 'string' }, { name: 'topic', type: 'string' }, { name: 'partition', type: 'int' },
      { name: 'offset', type: 'string', doc: 'The next offset to apply.' }, { name: 'at', type: 'long', doc: 'Milliseconds since the epoch.' },
    ],
  },
  key: (w) => `${w.sink}/${w.topic}/${w.partition}`,
}
