/**
 * Bulk ingest against its floor: how fast `lds ingest bulk` reads a large reference opinions file
 * (`opinions-2025-03-31.csv.bz2`, CURRENT format, about --mb compressed MB) into Kafka, against
 * decompressing the same file to /dev/null (`bzip2 -dc`, and `lbzip2 -dc` when installed) — the
 * least any reader of the file must spend. Goal: ingest / floor ≥ 0.8.
 *   npx tsx bench/bulk.ts [--mb 50] [--keep]
 * The file is generated once and cached under .data/bench-bulk/<mb>mb/ (bench/lib/bulk-opinions.ts).
 * The ingest runs into a throwaway deployment (own topic prefix and ClickHouse database, as
 * bench/ingest.ts does; no table sink), removed at the end unless --keep.
 * Needs the local infrastructure (npm run infra -- up).
 */
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { createReadStream, mkdirSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { loadConfig } from '../core/config.js'
import { createLogger } from '../core/logger.js'
import { createRuntime, prepare, removeDeployment } from '../bin/runtime.js'
import { ingestBulk } from '../bin/commands/ingest-bulk.js'
import { opinionsFile, hasCommand } from './lib/bulk-opinions.js'
import { parseFlags } from '../test/kit/args.js'

const flags = parseFlags('npx tsx bench/bulk.ts', {
  mb: { type: 'number', default: 50, help: 'compressed MB of the generated opinions file' },
  keep: { type: 'boolean', help: 'keep the throwaway deployment at the end' },
})
const MB = flags.mb
const KEEP = flags.keep
const log = (m: string) => console.log(m)

interface Timed { seconds: number; cpu: number }

/** Wall and CPU (user + system) seconds of `cmd -dc file > /dev/null`, timed by bash. */
function decompress(cmd: string, file: string): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', 'TIMEFORMAT="%R %U %S"; time "$0" -dc "$1" > /dev/null', cmd, file], { stdio: ['ignore', 'ignore', 'pipe'] })
    let err = ''
    child.stderr!.on('data', (d) => { err += d })
    child.once('error', reject)
    child.once('exit', (code) => {
      const m = /([\d.]+) ([\d.]+) ([\d.]+)\s*$/.exec(err)
      if (code !== 0 || !m) return reject(new Error(`${cmd} -dc failed (${code}): ${err.trim()}`))
      resolve({ seconds: Number(m[1]), cpu: Number(m[2]) + Number(m[3]) })
    })
  })
}

const baseCfg = loadConfig()
const cacheDir = path.join(baseCfg.dataDir, 'bench-bulk')
log(`bulk ingest benchmark: opinions file of ~${MB} MB compressed (cached under ${cacheDir})`)
const gen = await opinionsFile(cacheDir, MB, log)
const fileMb = gen.compressedBytes / 1048576
const textMb = gen.textBytes / 1048576
log(gen.reused ? `  cached file: ${gen.path}` : `  generated in ${gen.seconds.toFixed(0)} s (${gen.compressor}): ${gen.path}`)
log(`  ${gen.rows.toLocaleString('en-US')} rows, ${fileMb.toFixed(1)} MB compressed, ${textMb.toFixed(0)} MB of CSV (${(gen.textBytes / gen.compressedBytes).toFixed(2)}×)`)

// (a) the floor: decompression alone, the file in the page cache first (read once)
const load0 = os.loadavg()[0]
for await (const _chunk of createReadStream(gen.path, { highWaterMark: 8 << 20 })) { /* read only */ }
const floors: ({ name: string } & Timed)[] = [{ name: 'bzip2 -dc > /dev/null', ...(await decompress('bzip2', gen.path)) }]
if (hasCommand('lbzip2')) floors.push({ name: 'lbzip2 -dc > /dev/null', ...(await decompress('lbzip2', gen.path)) })
for (const f of floors) log(`  ${f.name}: ${f.seconds.toFixed(1)} s (CPU ${f.cpu.toFixed(1)} s)`)

// (b) ingestBulk of the file into a throwaway deployment
const id = `benchbulk${randomBytes(3).toString('hex')}`
const cfg = loadConfig({ ...process.env, LDS_TOPIC_PREFIX: `${id}.`, CLICKHOUSE_DATABASE: id, LOG_LEVEL: 'warn' })
const rt = createRuntime(cfg, createLogger(cfg))
const work = path.join(os.tmpdir(), id)
mkdirSync(work, { recursive: true })
let ingest: Timed & { published: number; refused: number; decompressor?: string; dialect?: string }
try {
  await prepare(rt)
  const t0 = performance.now()
  const cpu0 = process.cpuUsage()
  const s = await ingestBulk(rt, gen.path, { deadLetterPath: path.join(work, 'dead.jsonl'), progress: process.stdout.isTTY === true, restart: true })
  const seconds = (performance.now() - t0) / 1000
  const used = process.cpuUsage(cpu0)
  const cpu = (used.user + used.system) / 1e6
  const file = s.files?.[0] as { decompressor?: string; dialect?: string } | undefined
  ingest = { seconds, cpu, published: s.published, refused: s.refused, decompressor: file?.decompressor, dialect: file?.dialect }
  log(`  ingestBulk: ${seconds.toFixed(1)} s, ${s.published.toLocaleString('en-US')} published, ${s.refused} refused${file ? ` (${file.dialect}, ${file.decompressor})` : ''}`)
  if (s.published !== gen.rows) log(`  WARNING: ${gen.rows} rows in the file, ${s.published} published`)
} finally {
  if (KEEP) log(`  kept: topics ${id}.*, ClickHouse database ${id}`)
  else await removeDeployment(rt).catch((err) => log(`  cleanup failed: ${(err as Error).message}`))
  await rt.close()
  rmSync(work, { recursive: true, force: true })
}

const floor = floors[0].seconds
const load1 = os.loadavg()[0]
const rows = (sec: number) => Math.round(gen.rows / sec).toLocaleString('en-US')
const line = (name: string, x: Timed, cpuNote = '') => `| ${name} | ${x.seconds.toFixed(1)} | ${x.cpu.toFixed(1)}${cpuNote} | ${rows(x.seconds)} | ${(fileMb / x.seconds).toFixed(1)} | ${(textMb / x.seconds).toFixed(1)} | ${(floor / x.seconds).toFixed(2)} |`
console.log(`\n### bulk ingest: ${gen.rows.toLocaleString('en-US')} opinions, ${fileMb.toFixed(0)} MB bz2 (${textMb.toFixed(0)} MB CSV), ${os.cpus().length} cores, load average ${load0.toFixed(1)} → ${load1.toFixed(1)}\n`)
console.log('| step | wall s | CPU s | rows/s | compressed MB/s | CSV MB/s | floor / step |')
console.log('|---|---:|---:|---:|---:|---:|---:|')
for (const f of floors) console.log(line(f.name, f))
console.log(line(`ingestBulk → Kafka${ingest.decompressor ? ` (${ingest.decompressor})` : ''}`, ingest, ' + decompressor'))
const ratio = floor / ingest.seconds
console.log(`\ningest / floor (bzip2 -dc, wall) = ${ratio.toFixed(2)}; goal ≥ 0.8: ${ratio >= 0.8 ? 'met' : 'not met'}${ingest.refused ? `; ${ingest.refused} rows refused` : ''}`)
if (Math.max(load0, load1) > os.cpus().length) console.log(`(the machine was loaded: load average above its ${os.cpus().length} cores; wall times are inflated, CPU seconds less so)`)
process.exit(0)
