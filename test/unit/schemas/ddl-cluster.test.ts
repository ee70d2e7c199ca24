import t from 'tap'
import { catalogue } from '../../../schemas/catalogue/index.js'
import { toDdl } from '../../../schemas/ddl.js'
import { allTables, allViews, replicatedEngine, toCreateStatements, toCreateTable, type ClusterLayout } from '../../../schemas/tables.js'
import { planMigrations } from '../../../core/migrate.js'
import { INTERNAL_TABLES } from '../../../schemas/internal/index.js'

const replicated: ClusterLayout = { name: 'lds', replicated: true, onCluster: true }
const perNode: ClusterLayout = { name: 'lds', replicated: false, onCluster: false }
const courts = catalogue.resources.find((r) => r.name === 'courts')!

t.test('without a cluster the DDL is the single-node CREATE it always was', async (t) => {
  const table = allTables(catalogue).find((x) => x.name === courts.table)!
  t.equal(toDdl(catalogue, courts, 'lds'), toCreateTable(table, 'lds'))
  t.same(toCreateStatements(table, 'lds'), [toCreateTable(table, 'lds')])
  t.notMatch(toDdl(catalogue, courts, 'lds'), /ON CLUSTER|Distributed|Replicated/)
})

t.test('on a replicated cluster: a Replicated local table and a Distributed table under the name the API reads', async (t) => {
  const [local, dist] = toDdl(catalogue, courts, 'lds', replicated).split(';\n')
  t.match(local, /^CREATE TABLE IF NOT EXISTS `lds`\.`courts_local` ON CLUSTER `lds`\n/)
  t.match(local, "ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/lds/courts_local', '{replica}', _version, _deleted)")
  t.match(local, /ORDER BY `id`$/)
  t.match(dist, /^CREATE TABLE IF NOT EXISTS `lds`\.`courts` ON CLUSTER `lds`\n/)
  t.match(dist, "ENGINE = Distributed('lds', 'lds', 'courts_local', cityHash64(`id`))", 'sharded by the entity key: its versions meet on one shard, so FINAL is right')
  t.equal(dist.split('\n').filter((l) => l.startsWith('  `')).length, local.split('\n').filter((l) => l.startsWith('  `')).length, 'same columns')
})

t.test('without replication or ON CLUSTER (the local process cluster): plain Replacing local tables, statements per node', async (t) => {
  const [local, dist] = toDdl(catalogue, courts, 'lds', perNode).split(';\n')
  t.match(local, 'ENGINE = ReplacingMergeTree(_version, _deleted)')
  t.notMatch(local + dist, /ON CLUSTER|Replicated/)
  t.match(dist, "Distributed('lds', 'lds', 'courts_local', cityHash64(`id`))")
})

t.test('a table keyed by several columns is sharded by all of them', async (t) => {
  const waiting = INTERNAL_TABLES.find((x) => x.orderBy.length > 1)!
  const [, dist] = toCreateStatements(waiting, 'db', replicated)
  t.match(dist, `cityHash64(${waiting.orderBy.map((c) => `\`${c}\``).join(', ')})`)
})

t.test('any MergeTree engine becomes its Replicated form, keeping its arguments', async (t) => {
  t.equal(replicatedEngine('MergeTree', 'db', 'x'), "ReplicatedMergeTree('/clickhouse/tables/{shard}/db/x', '{replica}')")
  t.equal(replicatedEngine('ReplacingMergeTree(v)', 'db', 'x'), "ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/db/x', '{replica}', v)")
  t.throws(() => replicatedEngine('Log', 'db', 'x'), /cannot replicate engine Log/)
})

t.test('migrations on a cluster create both tables, and add a new column to both', async (t) => {
  const tables = allTables(catalogue)
  const all = planMigrations(tables, 'db', new Map(), replicated)
  t.equal(all.length, 2 * tables.length, 'a local and a Distributed table per declared table')
  t.ok(all.every((m) => m.statement.includes(' ON CLUSTER `lds`')), 'every statement goes ON CLUSTER')
  t.ok(all.findIndex((m) => m.id === 'create:courts_local') < all.findIndex((m) => m.id === 'create:courts'), 'the local table first: the Distributed one reads it')
  const existing = new Map<string, Map<string, string>>()
  for (const x of tables) for (const name of [x.name, `${x.name}_local`]) existing.set(name, new Map(x.columns.map((c) => [c.name, c.type])))
  t.same(planMigrations(tables, 'db', existing, replicated), [], 'nothing to do when current')
  existing.get('courts_local')!.delete('url')
  const add = planMigrations(tables, 'db', existing, replicated)
  t.same(add.map((m) => m.id), ['add:courts_local.url', 'add:courts.url'])
  t.match(add[0].statement, /^ALTER TABLE `db`\.`courts_local` ON CLUSTER `lds` ADD COLUMN IF NOT EXISTS `url` /)
  existing.delete('courts')
  t.same(planMigrations(tables, 'db', existing, perNode).map((m) => m.id), ['create:courts'], 'a node missing only the Distributed table gets it')
})

t.test('large texts on a cluster: a side table like any other, its view from each node\'s local tables, one fill through the Distributed ones', async (t) => {
  const opinions = catalogue.get('opinions')
  const statements = toDdl(catalogue, opinions, 'lds', replicated).split(';\n')
  t.equal(statements.length, 5, 'main local + Distributed, side local + Distributed, view')
  t.match(statements[2], "ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/lds/opinions_texts_local', '{replica}', _version, _deleted)")
  t.match(statements[2], /SETTINGS index_granularity_bytes = \d+$/)
  t.match(statements[3], "ENGINE = Distributed('lds', 'lds', 'opinions_texts_local', cityHash64(`id`))", 'sharded as the main table: a key\'s texts on its row\'s shard')
  t.notMatch(statements[3], /SETTINGS/, 'MergeTree settings on the local table only')
  t.match(statements[4], /^CREATE MATERIALIZED VIEW IF NOT EXISTS `lds`\.`opinions_texts_mv` ON CLUSTER `lds` TO `lds`\.`opinions_texts_local`\n.*\nFROM `lds`\.`opinions_local`$/s)
  const tables = allTables(catalogue)
  const views = allViews(catalogue)
  const plan = planMigrations(tables, 'db', new Map(), replicated, views)
  t.equal(plan.length, 2 * tables.length + 2 * views.length, 'tables, then a view and a fill per side table')
  const fill = plan.find((m) => m.id === 'fill:opinions_texts')!
  t.match(fill.statement, /^INSERT INTO `db`\.`opinions_texts` \(.*\) SETTINGS distributed_foreground_insert = 1\nSELECT .*\nFROM `db`\.`opinions`$/, 'ON CLUSTER: one node fills every shard through the Distributed tables')
  const perNodeFill = planMigrations(tables, 'db', new Map(), perNode, views).find((m) => m.id === 'fill:opinions_texts')!
  t.match(perNodeFill.statement, /^INSERT INTO `db`\.`opinions_texts_local` \(.*\)\nSELECT .*\nFROM `db`\.`opinions_local`$/, 'statements per node: each node its own rows')
})
