/**
 * The stack the search integration tests run on: the table sink and the search indexer, the API
 * and a publisher, each stopped when the test ends.
 */
import type { Test } from 'tap'
import type { FastifyInstance } from 'fastify'
import { testStack } from './stack.js'
import { startProcessors, stopAll, type Runtime } from '../../bin/runtime.js'
import { openPublisher, type Publisher } from '../../core/events/publisher.js'
import { buildApp } from '../../api/app.js'
import { entityTopic, groupId } from '../../schemas/events/index.js'
import { SEARCH_INDEXER } from '../../streams/search/indexer.js'
import { SEARCH_SOURCES } from '../../streams/search/documents.js'

export interface SearchStack {
  rt: Runtime
  app: FastifyInstance
  pub: Publisher
  /** A GET through the API: its status and JSON body. */
  get(url: string): Promise<{ status: number; body: any }>
}

export async function searchStack(t: Test): Promise<SearchStack> {
  const rt = await testStack(t)
  const streams = await startProcessors(rt, ['table-sink', 'search-index'])
  t.teardown(() => stopAll(rt, streams))
  const app = await buildApp(rt)
  t.teardown(() => app.close())
  const pub = await openPublisher(rt)
  t.teardown(() => pub.stop())
  const get = async (url: string) => { const r = await app.inject({ url, headers: { host: 'x.test' } }); return { status: r.statusCode, body: r.json() } }
  return { rt, app, pub, get }
}

/**
 * Every change published so far is searchable: the indexer has committed every offset of its
 * topics, and it commits a batch only after its inserts and the reload of the live versions. The
 * waits on what one query shows do not cover everything: a cluster indexed before the table sink
 * had applied its docket is indexed again from the dockets' batch, which may come later.
 */
export async function indexedAll(rt: Runtime): Promise<boolean> {
  const topics = [...new Set(Object.values(SEARCH_SOURCES).flat())].filter((r) => rt.catalogue.has(r)).map((r) => entityTopic(rt.cfg, r))
  const admin = rt.kafka.admin()
  await admin.connect()
  try {
    const committed = await admin.fetchOffsets({ groupId: groupId(rt.cfg, SEARCH_INDEXER), topics })
    for (const topic of topics) {
      const at = new Map((committed.find((c) => c.topic === topic)?.partitions ?? []).map((p) => [p.partition, BigInt(p.offset)]))
      for (const { partition, high } of await admin.fetchTopicOffsets(topic)) {
        if (BigInt(high) > 0n && (at.get(partition) ?? -1n) < BigInt(high)) return false
      }
    }
    return true
  } finally { await admin.disconnect() }
}
