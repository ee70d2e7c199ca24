/**
 * One publisher used by several callers at once (the mirror reads date_modified ranges of a list
 * at the same time): a flush returns only once everything published before it was acknowledged,
 * whichever caller's batch carried it, and every record arrives once.
 */
import t from 'tap'
import { testStack } from '../helpers/stack.js'
import { createPublisher } from '../../core/events/publisher.js'
import { entityTopic } from '../../schemas/events/names.js'

t.test('a flush waits for the batches every caller has in flight', async (t) => {
  const rt = await testStack(t)
  // Small batches: many sends, so callers' batches overlap.
  const pub = createPublisher({ ...rt, batchSize: 7 })
  await pub.start()
  t.teardown(() => pub.stop())
  const ts = '2024-03-01T10:00:00+00:00'
  let upserted = 0
  const shortfalls: string[] = []
  await Promise.all([0, 1, 2, 3].map(async (caller) => {
    for (let i = 0; i < 300; i++) {
      const id = caller * 1000 + i
      await pub.upsert('dockets', { id, court_id: 'c0', case_name: `Case ${id}`, docket_number: String(id), source: 0, date_created: ts, date_modified: ts })
      upserted++
      if (i % 25 === 24) {
        const before = upserted
        await pub.flush()
        if (pub.stats.published < before) shortfalls.push(`caller ${caller}: flushed with ${pub.stats.published} of ${before} acknowledged`)
      }
    }
  }))
  await pub.flush()
  t.same(shortfalls, [], 'no flush returned before what was published ahead of it was acknowledged')
  t.equal(pub.stats.published, 1200, 'every record acknowledged once')
  const admin = rt.kafka.admin()
  await admin.connect()
  try {
    const offsets = await admin.fetchTopicOffsets(entityTopic(rt.cfg, 'dockets'))
    t.equal(offsets.reduce((n, p) => n + Number(p.high) - Number(p.low), 0), 1200, 'the topic holds each record once')
  } finally { await admin.disconnect() }
})
