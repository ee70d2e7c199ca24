/**
 * The clustered DDL, checked by the ClickHouse engine we ship (run once as clickhouse-local, no
 * server): every statement of the replicated layout parses (the engine here cannot replicate nor
 * run ON CLUSTER: docs/decisions/cluster-clickhouse.md), and the layout the local cluster runs is
 * created for real, and a key's versions written through its Distributed table read back by FINAL.
 */
import t from 'tap'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import net from 'node:net'
import { catalogue } from '../../../schemas/catalogue/index.js'
import { allTables, allViews, toAddColumn, toCreateStatements, toCreateView, toFillView, type ClusterLayout } from '../../../schemas/tables.js'
import { LAUNCHER, libchdb } from '../../../infra/clickhouse-server.js'

const dir = mkdtempSync(path.join(tmpdir(), 'lds-cluster-ddl-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))

function local(args: string[]): { ok: boolean; out: string; err: string } {
  const r = spawnSync('python3', [LAUNCHER, '--local', libchdb(), ...args], { encoding: 'utf8', maxBuffer: 64 * 2 ** 20 })
  return { ok: r.status === 0, out: r.stdout, err: r.stderr }
}

const freePort = () => new Promise<number>((resolve) => {
  const s = net.createServer().listen(0, '127.0.0.1', () => { const { port } = s.address() as net.AddressInfo; s.close(() => resolve(port)) })
})

t.test('every statement of the replicated ON CLUSTER layout parses', async (t) => {
  const layout: ClusterLayout = { name: 'lds', replicated: true, onCluster: true }
  const tables = allTables(catalogue)
  const statements = [
    ...tables.flatMap((x) => toCreateStatements(x, 'lds', layout)),
    ...toAddColumn(tables[0], { name: 'added', type: 'Nullable(String)' }, 'lds', layout),
    ...allViews(catalogue).flatMap((v) => [toCreateView(v, 'lds', layout), toFillView(v, 'lds', layout)]),
  ]
  const r = local([`--query=${statements.map((s) => `EXPLAIN AST ${s}`).join(';\n')}`])
  t.ok(r.ok, r.err.slice(0, 2000))
  t.equal((r.out.match(/Function ReplicatedReplacingMergeTree/g) ?? []).length, tables.length, 'one Replicated local table per declared table')
  t.equal((r.out.match(/Function Distributed/g) ?? []).length, tables.length, 'one Distributed table per declared table')
  t.equal((r.out.match(/CreateQuery.*opinions_texts_mv/g) ?? []).length, 1, 'the large texts\' views parse')
  t.notOk(local(['--query=EXPLAIN AST CREATE TABLE x ON CLUSTER (a UInt8) ENGINE = Log']).ok, 'a malformed statement is refused: the check is real')
})

t.test('the local cluster\'s layout is created by the engine, and FINAL through Distributed sees the latest version', async (t) => {
  const tcp = await freePort()
  const config = path.join(dir, 'config.xml')
  // One shard, this very process (the engine reads its own shard locally): enough to exercise the Distributed tables.
  writeFileSync(config, `<clickhouse><macros><shard>1</shard><replica>1</replica></macros><remote_servers><lds><shard><replica><host>127.0.0.1</host><port>${tcp}</port></replica></shard></lds></remote_servers></clickhouse>`)
  const layout: ClusterLayout = { name: 'lds', replicated: false, onCluster: false }
  const statements = ['CREATE DATABASE IF NOT EXISTS lds', ...allTables(catalogue).flatMap((x) => toCreateStatements(x, 'lds', layout))]
  const views = allViews(catalogue)
  const r = local([`--path=${path.join(dir, 'data')}/`, `--config-file=${config}`, `--tcp_port=${tcp}`, `--query=${[
    ...statements,
    'INSERT INTO lds.courts (id, _version, _deleted) SETTINGS distributed_foreground_insert = 1 VALUES (\'ca1\', 1, 0), (\'ca1\', 2, 0), (\'ca2\', 1, 0), (\'ca2\', 2, 1)',
    'SELECT id, _version FROM lds.courts FINAL ORDER BY id FORMAT TSV',
    "SELECT engine FROM system.tables WHERE database = 'lds' AND name IN ('courts', 'courts_local') ORDER BY name FORMAT TSV",
    // Large texts: a row stored before the view is copied by the fill, one after by the view.
    'INSERT INTO lds.opinions (id, plain_text, _version, _deleted) SETTINGS distributed_foreground_insert = 1 VALUES (1, \'before\', 1, 0)',
    ...views.flatMap((v) => [toCreateView(v, 'lds', layout), toFillView(v, 'lds', layout)]),
    'INSERT INTO lds.opinions (id, plain_text, _version, _deleted) SETTINGS distributed_foreground_insert = 1 VALUES (2, \'after\', 1, 0), (1, \'changed\', 2, 0)',
    'SELECT id, plain_text, _version FROM lds.opinions_texts FINAL ORDER BY id FORMAT TSV',
  ].join(';\n')}`])
  t.ok(r.ok, r.err.slice(0, 2000))
  t.equal(r.out, 'ca1\t2\nDistributed\nReplacingMergeTree\n1\tchanged\t2\n2\tafter\t1\n', 'latest version of ca1; ca2 deleted; the tables are what the layout says; the texts\' side table filled and kept')
})
