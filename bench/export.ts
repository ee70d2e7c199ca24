/**
 * `lds export bulk` throughput: rows per second of the opinions file, against peers measured in the
 * same run on the same rows:
 *   npx tsx bench/export.ts [--rows 300000] [--text-bytes 900]
 *
 * --rows generated opinions (about --text-bytes of text each, as real opinions carry) go straight
 * into a throwaway deployment's table. Then, one after the other:
 * 1. ClickHouse writing the table as CSV to /dev/null (`SELECT … FORMAT CSV`, its own speed: the floor
 *    of any export that reads the table);
 * 2. the export's reference-csv file uncompressed (a pass-through as the compressor): our formatting and streaming;
 * 3. the same with the compressor the export uses (lbzip2 on every core, else bzip2), the reference's
 *    `.csv.bz2`;
 * 4. the same CSV bytes through that compressor alone (`<compressor> -c < file > /dev/null`): the
 *    compressor's bound;
 * 5. Parquet and JSON lines.
 * Goal: ≥ 100,000 rows/s (issue 22). Writes .data/bench/export.json.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { spawnSync } from 'node:child_process'
import { loadConfig } from '../core/config.js'
import { createLogger } from '../core/logger.js'
import { sql, ident, compile } from '../core/sql.js'
import { createRuntime, prepare, removeDeployment } from '../bin/runtime.js'
import { createEntityCodec } from '../schemas/events/entity-codec.js'
import { exportBulk, type ExportOptions } from '../connectors/bulk/export/index.js'
import { ensureLbzip2 } from '../infra/debian.js'
import { parseFlags } from '../test/kit/args.js'

const flags = parseFlags('npx tsx bench/export.ts', {
  rows: { type: 'number', default: 300_000, help: 'opinions in the table' },
  'text-bytes': { type: 'number', default: 900, help: 'bytes of text per opinion' },
})
const N = flags.rows
const words = 'the court held that plaintiff appeal reversed remanded statute judgment evidence jury motion denied granted "quoted" back\\slash, comma'.split(' ')

const id = `benchexp${randomBytes(3).toString('hex')}`
const cfg = loadConfig({ ...process.env, LDS_TOPIC_PREFIX: `${id}.`, CLICKHOUSE_DATABASE: id, LOG_LEVEL: 'warn' })
const rt = createRuntime(cfg, createLogger(cfg))
const out = mkdtempSync(path.join(tmpdir(), 'lds-export-bench-'))
const results: { way: string; seconds: number; rowsPerSecond: number; mb?: number }[] = []
const row = (way: string, seconds: number, mb?: number) => {
  results.push({ way, seconds, rowsPerSecond: Math.round(N / seconds), mb })
  console.log(`${way.padEnd(58)} ${seconds.toFixed(2).padStart(7)} s ${Math.round(N / seconds).toLocaleString('en-US').padStart(10)} rows/s${mb ? `  ${(mb / seconds).toFixed(1)} MB/s of CSV` : ''}`)
}
const timed = async (fn: () => Promise<unknown> | unknown) => { const t0 = performance.now(); await fn(); return (performance.now() - t0) / 1000 }

try {
  await prepare(rt)
  const bzip = (await ensureLbzip2().catch(() => false)) ? 'lbzip2' : 'bzip2'
  const codec = createEntityCodec(rt.catalogue, rt.catalogue.get('opinions'))
  for (let start = 1; start <= N; start += 50_000) {
    const rows = []
    for (let i = start; i < Math.min(N + 1, start + 50_000); i++) {
      let text = ''
      for (let w = 0; text.length < flags['text-bytes']; w++) text += words[(i * 7 + w * 13) % words.length] + ' '
      rows.push({
        ...codec.toEntity({ id: i, cluster_id: Math.ceil(i / 2), type: '010combined', per_curiam: false, sha1: i.toString(16).padStart(40, '0'), plain_text: text, html: '', date_created: '2024-01-01T00:00:00+00:00', date_modified: '2024-01-02T00:00:00+00:00', extracted_by_ocr: false }),
        _version: i, _deleted: 0,
      })
    }
    await rt.db.insert('opinions', rows)
  }
  console.log(`${N.toLocaleString('en-US')} opinions of ~${flags['text-bytes']} bytes of text in ${id}.opinions; compressor ${bzip}\n`)

  const compiled = compile(sql`SELECT * FROM ${ident(id)}.opinions FINAL`)
  row('ClickHouse alone: SELECT … FORMAT CSV to /dev/null', await timed(async () => {
    const rs = await rt.db.client.query({ ...compiled, format: 'CSV' })
    for await (const _ of rs.stream()) { /* drained */ }
  }))

  const run = async (way: string, dir: string, opts: ExportOptions) => {
    mkdirSync(dir, { recursive: true })
    const seconds = await timed(() => exportBulk(rt.db, dir, { resources: ['opinions'], concurrency: 1, ...opts }))
    const file = readdirSync(dir).find((f) => f.startsWith('opinions') || f.endsWith('.parquet') || f.endsWith('.jsonl'))!
    return { seconds, file: path.join(dir, file) }
  }
  // The export runs its compressor as `<command> -c`: a pass-through that takes the flag.
  const passThrough = path.join(out, 'pass-through')
  writeFileSync(passThrough, '#!/bin/sh\nexec cat\n', { mode: 0o755 })
  const plain = await run('csv', path.join(out, 'plain'), { compressor: passThrough })
  const csvMb = statSync(plain.file).size / 1e6
  row('export bulk, reference-csv, uncompressed', plain.seconds, csvMb)
  const bz = await run('bz2', path.join(out, 'bz2'), { compressor: bzip })
  row(`export bulk, reference-csv, ${bzip} (.csv.bz2)`, bz.seconds, csvMb)
  const alone = await timed(() => { spawnSync('sh', ['-c', `${bzip} -c < '${plain.file}' > /dev/null`], { stdio: 'inherit' }) })
  row(`${bzip} alone over the same CSV (its bound)`, alone, csvMb)
  row('export bulk, parquet', (await run('parquet', path.join(out, 'parquet'), { format: 'parquet' })).seconds)
  row('export bulk, jsonl', (await run('jsonl', path.join(out, 'jsonl'), { format: 'jsonl' })).seconds)
  const bzRate = N / bz.seconds
  console.log(`\nreference-csv ${bzip} ÷ ${bzip} alone: ${(alone / bz.seconds).toFixed(2)}; goal ≥ 100,000 rows/s: ${bzRate >= 100_000 ? 'met' : 'not met'} (${Math.round(bzRate).toLocaleString('en-US')})`)
  mkdirSync(path.join(cfg.dataDir, 'bench'), { recursive: true })
  writeFileSync(path.join(cfg.dataDir, 'bench', 'export.json'), JSON.stringify({ rows: N, textBytes: flags['text-bytes'], compressor: bzip, results }, null, 2))
} finally {
  rmSync(out, { recursive: true, force: true })
  await removeDeployment(rt)
  await rt.close()
}
process.exit(0)
