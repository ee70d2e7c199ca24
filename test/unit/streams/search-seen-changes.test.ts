import t from 'tap'
import { createSeenChanges, offsetKey } from '../../../streams/search/seen-changes.js'

const offsets = (entries: [string, number, number][]) => new Map(entries.map(([topic, p, o]) => [offsetKey(topic, p), BigInt(o)]))

t.test('a change the sink had applied before the last build began is seen; a later one is not', async (t) => {
  const seen = createSeenChanges()
  t.notOk(seen.saw('o', 1, offsets([['opinions', 0, 5]])), 'never built')
  // built when the sink had applied opinions/0 up to offset 9 (10 is the next) and citations/0 up to 2
  seen.record('o', [1, 2], offsets([['opinions', 0, 10], ['citations', 0, 3]]))
  t.ok(seen.saw('o', 1, offsets([['opinions', 0, 9]])))
  t.ok(seen.saw('o', 2, offsets([['opinions', 0, 4], ['citations', 0, 2]])), 'changes on two topics, both applied')
  t.notOk(seen.saw('o', 1, offsets([['opinions', 0, 10]])), 'the first offset the sink had not applied')
  t.notOk(seen.saw('o', 1, offsets([['opinions', 1, 0]])), 'a partition the build knew nothing of')
  t.notOk(seen.saw('o', 1, offsets([['dockets', 0, 0]])), 'a topic the build knew nothing of')
  t.notOk(seen.saw('r', 1, offsets([['opinions', 0, 1]])), 'the same id in another type')
  t.notOk(seen.saw('o', 3, offsets([['opinions', 0, 1]])), 'another document')
})

t.test('a later build replaces the earlier one', async (t) => {
  const seen = createSeenChanges()
  seen.record('o', [1], offsets([['opinions', 0, 5]]))
  seen.record('o', [1], offsets([['opinions', 0, 50]]))
  t.ok(seen.saw('o', 1, offsets([['opinions', 0, 40]])))
})

t.test('bounded: past the limit the oldest builds are forgotten, and those documents are built again', async (t) => {
  const seen = createSeenChanges({ documents: 3 })
  const applied = offsets([['opinions', 0, 100]])
  seen.record('o', [1, 2, 3], applied)
  seen.record('o', [1], applied) // built again: now the newest
  seen.record('o', [4], applied)
  t.equal(seen.size(), 3)
  const change = offsets([['opinions', 0, 1]])
  t.same([1, 2, 3, 4].filter((id) => seen.saw('o', id, change)), [1, 3, 4], '2, the oldest build, is forgotten')
})

t.test('bounded in builds too: a document whose build is forgotten is built again', async (t) => {
  const seen = createSeenChanges({ builds: 2 })
  for (let id = 1; id <= 3; id++) seen.record('o', [id], offsets([['opinions', 0, 100 + id]]))
  const change = offsets([['opinions', 0, 1]])
  t.same([1, 2, 3].filter((id) => seen.saw('o', id, change)), [2, 3], 'the first build, the oldest of three, is forgotten')
})
