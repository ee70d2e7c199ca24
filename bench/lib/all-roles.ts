/**
 * The consumer groups of the processors `npm start` runs beside the API, each with the topics it
 * reads, as bin/start.ts waits for them: the benchmark's `--all-roles` mode waits until they have
 * caught up, so its load cases meet idle processors, not a first pass over the data.
 */
import type { Runtime } from '../../bin/runtime.js'
import { groupId, entityTopic, PROCESSORS, commandTopic, RELINK, RECOUNT } from '../../schemas/events/index.js'
import { SEARCH_INDEXER } from '../../streams/search/indexer.js'
import { SEARCH_SOURCES } from '../../streams/search/documents.js'
import { entityTopics } from './dataset.js'

export interface GroupToFollow { label: string; group: string; topics: () => Promise<string[]> }

export function processorGroups(rt: Runtime): GroupToFollow[] {
  const cfg = rt.cfg
  const searched = [...new Set(Object.values(SEARCH_SOURCES).flat())].filter((r) => rt.catalogue.has(r)).map((r) => entityTopic(cfg, r))
  return [
    { label: 'citation network', group: groupId(cfg, PROCESSORS.citationNetwork), topics: async () => [entityTopic(cfg, 'opinions'), entityTopic(cfg, 'citations'), commandTopic(cfg, RELINK.name), commandTopic(cfg, RECOUNT.name)] },
    { label: 'tables', group: groupId(cfg, PROCESSORS.tableSink), topics: () => entityTopics(rt) },
    { label: 'search index', group: groupId(cfg, SEARCH_INDEXER), topics: async () => searched },
  ]
}
