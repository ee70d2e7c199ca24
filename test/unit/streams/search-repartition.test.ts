/**
 * The keys between the search-index role's repartition stage and its indexers: every key of one
 * document goes to one partition (so to one owner), a batch builds a document once, and a
 * document asked for only if indexed is built when any key asks for it unconditionally; the keys
 * of a batch; and the setting that runs the role in two stages.
 */
import t from 'tap'
import { encodeDocumentKey, decodeDocumentKey, encodeDocumentKeys, decodeDocumentKeys, KEYS_PER_MESSAGE, partitionOf, wantedOf, type DocumentKey } from '../../../streams/search/document-keys.js'
import { offsetKey } from '../../../streams/search/seen-changes.js'
import { touchedKeys } from '../../../streams/search/repartition.js'
import { searchStages } from '../../../streams/search/indexer.js'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { parse } from 'yaml'
import { loadConfig, PROJECT_ROOT } from '../../../core/config.js'
import { ROLE_GROUPS } from '../../../infra/cluster/topology.js'
import { roleProcesses } from '../../../infra/cluster/processes.js'
import type { Row } from '../../../streams/search/documents.js'
import type { SearchType } from '../../../domain/search/index.js'

const key = (k: Partial<DocumentKey>): DocumentKey => ({ type: 'o', id: 1, ifIndexed: false, after: [], ...k })

t.test('a document has one partition, whatever change asks for it; documents spread over the partitions', async (t) => {
  const a = encodeDocumentKey(key({ id: 42, after: [['p.entity.courts', 0, '5']] }), 4)
  const b = encodeDocumentKey(key({ id: 42, ifIndexed: true, after: [['p.entity.clusters', 3, '900']] }), 4)
  t.equal(a.partition, b.partition)
  t.equal(a.key, 'o:42')
  t.not(partitionOf('o', 42, 4), undefined)
  t.ok(partitionOf('o', 42, 4) >= 0 && partitionOf('o', 42, 4) < 4)
  const counts = [0, 0, 0, 0]
  for (let id = 1; id <= 4000; id++) counts[partitionOf('r', id, 4)]++
  for (const n of counts) t.ok(n > 800 && n < 1200, `each partition holds about a quarter (${n})`)
  // the same id of another type is another document, placed on its own
  const types = new Set(Array.from({ length: 50 }, (_, id) => partitionOf('d', id, 4) === partitionOf('r', id, 4)))
  t.ok(types.has(false), 'types are part of the key')
})

t.test('a key survives its message; a message that is not a key is refused with the reason', async (t) => {
  const k = key({ type: 'rd', id: 7, ifIndexed: true, after: [['x.entity.dockets', 2, '12']] })
  t.same(decodeDocumentKey(Buffer.from(encodeDocumentKey(k, 4).value as string)), k)
  t.throws(() => decodeDocumentKey(null), /without a value/)
  t.throws(() => decodeDocumentKey(Buffer.from(JSON.stringify({ type: 'zz', id: 1 }))), /unknown search type "zz"/)
  t.throws(() => decodeDocumentKey(Buffer.from(JSON.stringify({ type: 'o', id: 1.5 }))), /not a whole number/)
  t.throws(() => decodeDocumentKey(Buffer.from(JSON.stringify({ type: 'o', id: 1, after: [['t', 0, 'x']] }))), /bad change position/)
  t.throws(() => decodeDocumentKey(Buffer.from('{')), SyntaxError)
})

t.test('a batch asks for each document once: built if any key asks without condition, after the last change of each partition', async (t) => {
  const w = wantedOf([
    key({ id: 1, ifIndexed: true, after: [['c', 0, '5']] }),
    key({ id: 1, ifIndexed: false, after: [['d', 1, '9']] }),
    key({ id: 1, ifIndexed: true, after: [['c', 0, '3']] }),
    key({ id: 2, ifIndexed: true, after: [['c', 0, '5']] }),
    key({ type: 'r', id: 1, after: [['d', 1, '9']] }),
  ])
  t.same([...w.keys()].sort(), ['o', 'r'])
  const one = w.get('o')!.get(1)!
  t.equal(one.ifIndexed, false, 'one unconditional key makes it a build')
  t.same([...one.after].sort(), [[offsetKey('c', 0), 5n], [offsetKey('d', 1), 9n]])
  t.equal(w.get('o')!.get(2)!.ifIndexed, true, 'only conditional keys: the owner decides')
  t.equal(w.get('o')!.size, 2)
})

t.test('a batch\'s keys: every document a change touches, and those of a row many show only if indexed, each after the batch\'s last changes', async (t) => {
  const after = [['p.entity.courts', 0, '7']] as const
  const asked: [string, string, number[]][] = []
  const source = {
    async affected(type: SearchType, resource: string, rows: readonly Row[], previous: readonly number[] = [], ifIndexed?: Set<number>) {
      asked.push([type, resource, [...previous]])
      if (resource === 'courts') { ifIndexed?.add(10); ifIndexed?.add(11); return [] }
      return type === 'o' ? rows.map((r) => Number(r.cluster_id)) : []
    },
  }
  const rows = new Map<string, Row[]>([['courts', [{ id: 'ca1' }]], ['opinions', [{ id: 5, cluster_id: 10 }]]])
  const keys = await touchedKeys(source, rows, new Map([['opinions', new Map([[5, [9]]])]]), after)
  const of = (type: string) => keys.filter((k) => k.type === type).map((k) => [k.id, k.ifIndexed]).sort()
  t.same(of('o'), [[10, false], [11, true]], 'o:10 built without condition (its opinion changed), o:11 only if indexed (its court was renamed)')
  t.ok(keys.every((k) => k.after === after), 'each key says the changes it must see')
  t.ok(asked.some(([type, resource, previous]) => type === 'o' && resource === 'opinions' && previous.includes(9)), 'the parents an opinion was last indexed under are asked too')
})

t.test('LDS_SEARCH_INSTANCES switches the role\'s mode: one stage by default, two above 1', async (t) => {
  const base = { LDS_DATA_DIR: '/tmp/lds-config-test' }
  t.equal(loadConfig(base).searchInstances, 1)
  t.equal(searchStages(loadConfig(base)), 1, 'default: the one-stage indexer, no documents topic')
  t.equal(searchStages(loadConfig({ ...base, LDS_SEARCH_INSTANCES: '1' })), 1)
  t.equal(searchStages(loadConfig({ ...base, LDS_SEARCH_INSTANCES: '2' })), 2, 'two instances: repartition stage and builders')
  t.equal(searchStages(loadConfig({ ...base, LDS_SEARCH_INSTANCES: '6' })), 2)
  t.throws(() => loadConfig({ ...base, LDS_SEARCH_INSTANCES: '0' }), /LDS_SEARCH_INSTANCES/)
  t.throws(() => loadConfig({ ...base, LDS_SEARCH_INSTANCES: '1.5' }), /LDS_SEARCH_INSTANCES/)
  t.throws(() => loadConfig({ ...base, LDS_SEARCH_INSTANCES: 'two' }), /LDS_SEARCH_INSTANCES/)
})

t.test('the deployments that run the search index twice pass LDS_SEARCH_INSTANCES as their instance count', async (t) => {
  const group = ROLE_GROUPS.find((g) => g.roles === 'search-index')!
  t.ok(group.instances > 1)
  const indexers = roleProcesses('/tmp/cluster-dir', {}).filter((p) => p.name.startsWith('search-index'))
  t.equal(indexers.length, group.instances)
  t.ok(indexers.every((p) => p.env?.LDS_SEARCH_INSTANCES === String(group.instances)), 'the local cluster')
  const compose = parse(readFileSync(path.join(PROJECT_ROOT, 'docker-compose.yml'), 'utf8')) as { services: Record<string, { environment?: Record<string, unknown>; deploy?: { replicas?: number } }> }
  const service = compose.services['search-index']
  t.equal(String(service.environment?.LDS_SEARCH_INSTANCES), String(service.deploy?.replicas), 'docker-compose.yml')
})

t.test('a batch\'s keys go in few messages, each for the partition of its documents, and come back as they went', async (t) => {
  const after = [['x.entity.dockets', 1, '40']] as const
  const keys = Array.from({ length: 2_500 }, (_, i) => key({ type: i % 2 ? 'r' : 'd', id: i, ifIndexed: i % 3 === 0, after }))
  const messages = encodeDocumentKeys(keys, 4)
  t.ok(messages.length <= 4 + Math.ceil(keys.length / KEYS_PER_MESSAGE), `${messages.length} messages for ${keys.length} keys`)
  const back = messages.flatMap((m) => decodeDocumentKeys(Buffer.from(m.value as string)).map((k) => ({ ...k, partition: m.partition })))
  t.equal(back.length, keys.length)
  t.ok(back.every((k) => k.partition === partitionOf(k.type, k.id, 4)), 'each key in its document\'s partition')
  t.same(back.map(({ partition: _, ...k }) => k).sort((a, b) => a.id - b.id), keys, 'the same keys, with their positions')
  // in a partition, keys keep the order they were published in
  const ofPartition = back.filter((k) => k.partition === 0).map((k) => k.id)
  t.same(ofPartition, [...ofPartition].sort((a, b) => a - b))
  // a message of one key (as 461504d wrote them) is read too
  t.same(decodeDocumentKeys(Buffer.from(encodeDocumentKey(keys[3], 4).value as string)), [keys[3]])
  t.throws(() => decodeDocumentKeys(Buffer.from(JSON.stringify({ after, keys: [['zz', 1, 0]] }))), /unknown search type/)
  t.throws(() => decodeDocumentKeys(Buffer.from(JSON.stringify({ after: [['t', 0, 'x']], keys: [] }))), /bad change position/)
  t.throws(() => decodeDocumentKeys(Buffer.from(JSON.stringify({ after, keys: [5] }))), /bad search document key/)
})
