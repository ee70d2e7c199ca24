/**
 * A large reference `opinions` bulk file for the bulk-ingest benchmark, in the CURRENT format
 * (`FORMAT csv, HEADER, ESCAPE '\', FORCE_QUOTE *`: `"` quotes, `\"` and `\\` inside values, NULL
 * an empty unquoted field), bzip2-compressed, of about a given compressed size.
 *
 * Rows are realistic opinions: every column of the reference's `search_opinion` in the file's
 * order, texts of a few KB (plain text for most, HTML with citations for some) made word by word
 * from a seeded generator, so they compress like prose (about 3–4×), not like repeated blocks;
 * quotes, backslashes, CR/LF and the odd non-ASCII character appear in them.
 *
 * Speed: one Node generator feeds several compressors at once (`lbzip2` when installed, else one
 * `bzip2` per core, each writing its own stream, concatenated at the end: a multi-stream .bz2 that
 * `bzip2 -dc` reads like any other). Row order across streams does not matter to the importer.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { createReadStream, createWriteStream, existsSync, mkdirSync, openSync, closeSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { BULK_TABLES } from '../../connectors/bulk/tables.js'
import { mulberry32 } from '../../test/kit/random.js'

export const OPINIONS_TABLE = BULK_TABLES.find((t) => t.table === 'search_opinion')!
export const OPINIONS_FILE = `${OPINIONS_TABLE.file}-2025-03-31.csv.bz2`
const GENERATOR_VERSION = 2

export interface GeneratedFile { path: string; rows: number; textBytes: number; compressedBytes: number; seconds: number; reused: boolean; compressor: string }

export const hasCommand = (cmd: string) => !spawnSync(cmd, ['--version'], { stdio: 'ignore' }).error

const prng = mulberry32

const SYLLABLES = ['al', 'be', 'con', 'de', 'er', 'for', 'gen', 'hold', 'in', 'ju', 'ket', 'la', 'man', 'ne', 'or', 'pre', 'qui', 're', 'st', 'tion', 'um', 'ver', 'wit', 'ex', 'ly', 'ment', 'ant', 'ous', 'ive', 'ed']
const LEGAL = ['court', 'held', 'that', 'the', 'of', 'and', 'to', 'a', 'in', 'plaintiff', 'defendant', 'appeal', 'statute', 'judgment', 'evidence', 'jury', 'motion', 'denied', 'granted', 'reversed', 'remanded', 'trial', 'counsel', 'section', 'U.S.C.', 'v.', 'Id.', 'See', 'at', 'is', 'was', 'not', 'for', 'by', 'with', 'on']

/** A vocabulary: common legal words first (picked most often), then made-up words. */
function vocabulary(rand: () => number, size = 6000): string[] {
  const words = [...LEGAL]
  while (words.length < size) {
    let w = ''
    const n = 1 + Math.floor(rand() * 4)
    for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(rand() * SYLLABLES.length)]
    words.push(w)
  }
  return words
}

const esc = (v: string) => (v.includes('\\') || v.includes('"') ? v.replace(/[\\"]/g, '\\$&') : v)

/**
 * Makes opinion rows (CSV records in the current format) as fast as it can: texts are runs of
 * phrases drawn from a pool of 2^18 made word by word (about 18 MB, so a 900 kB bzip2 block
 * seldom sees a phrase twice), each kept escaped, so a row costs one draw per ~70 bytes.
 */
export class OpinionRows {
  private readonly rand: () => number
  private readonly words: string[]
  /** Phrases, already escaped for a quoted value of the current format. */
  private readonly phrases: string[] = []
  private id = 0
  constructor(seed = 42, poolSize = 1 << 18) {
    this.rand = prng(seed)
    this.words = vocabulary(this.rand)
    for (let i = 0; i < poolSize; i++) this.phrases.push(esc(this.phrase()))
  }

  private word(): string {
    // Zipf-like: a cubed uniform favours the first (common) words.
    const u = this.rand()
    return this.words[Math.floor(u * u * u * this.words.length)]
  }

  /** 6–14 words and what ends them: mostly a space or a full stop; quotes, backslashes, CR/LF, citations now and then. */
  private phrase(): string {
    const n = 6 + Math.floor(this.rand() * 9)
    let p = ''
    for (let i = 0; i < n; i++) p += (i ? ' ' : '') + this.word()
    const r = this.rand()
    const end = r < 0.4 ? ' ' : r < 0.65 ? '. ' : r < 0.75 ? '.\n' : r < 0.8 ? '.\r\n\r\n' : r < 0.86 ? ' "quoted," ' : r < 0.89 ? ' \\ ' : r < 0.92 ? ' § 1983, ' : r < 0.96 ? ` ${1 + Math.floor(this.rand() * 600)} U.S. ${1 + Math.floor(this.rand() * 900)}, ` : ' — '
    return p + end
  }

  /** An escaped text of about `bytes`. */
  private text(bytes: number): string {
    const pool = this.phrases
    let t = ''
    while (t.length < bytes) t += pool[Math.floor(this.rand() * pool.length)]
    return t
  }

  /** The next row as one CSV record (with its line end). */
  next(): string {
    const id = ++this.id
    const r = this.rand
    const plain = this.text(1500 + Math.floor(r() * r() * 9000))
    const withCitations = r() < 0.35 ? `<pre class=\\"inline\\">${plain.slice(0, 2000)}</pre><span class=\\"citation\\" data-id=\\"${id}\\">${this.text(600)}</span>` : ''
    const day = 1 + (id % 28)
    const ts = `20${10 + (id % 15)}-0${1 + (id % 9)}-${day < 10 ? '0' : ''}${day} ${String(id % 24).padStart(2, '0')}:${String(id % 60).padStart(2, '0')}:${String((id * 7) % 60).padStart(2, '0')}${id % 3 ? `.${String((id * 7919) % 1_000_000).padStart(6, '0')}` : ''}+00`
    const author = r() < 0.6 ? String(1 + Math.floor(r() * 5000)) : null
    // Values already escaped (none of the short ones needs it but the author's name, made of words).
    const values: (string | null)[] = [
      String(id), ts, ts, author ? esc(`Judge ${this.word()}`) : '', r() < 0.05 ? 't' : 'f', '', ['010combined', '020lead', '030concurrence', '040dissent'][id % 4],
      (id * 2654435761 % 4294967296).toString(16).padStart(8, '0').repeat(5), r() < 0.5 ? String(1 + Math.floor(r() * 40)) : null,
      r() < 0.3 ? `https://www.example-court.gov/opinions/${id}.pdf` : null, r() < 0.3 ? `pdf/20${10 + (id % 15)}/${id}.pdf` : '',
      plain, '', '', '', '', '', '', withCitations, r() < 0.1 ? 't' : 'f', author, String(Math.ceil(id / 1.3)),
    ]
    let line = ''
    for (let i = 0; i < values.length; i++) {
      const v = values[i]
      if (i) line += ','
      if (v !== null) line += '"' + v + '"'
    }
    return line + '\n'
  }

  get rows() { return this.id }
}

interface Compressor { child: ChildProcess; out: string; done: Promise<void> }

function startCompressor(cmd: string, args: string[], out: string): Compressor {
  const fd = openSync(out, 'w')
  const child = spawn(cmd, args, { stdio: ['pipe', fd, 'inherit'] })
  closeSync(fd)
  const done = new Promise<void>((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} exited with ${code}`))))
  })
  return { child, out, done }
}

const sizeOf = (f: string) => { try { return statSync(f).size } catch { return 0 } }

/**
 * The cached file of about `mb` compressed MB under `dir` (made when missing or made by another
 * generator version). `log` receives progress lines.
 */
export async function opinionsFile(dir: string, mb: number, log: (m: string) => void): Promise<GeneratedFile> {
  const folder = path.join(dir, `${mb}mb`)
  const file = path.join(folder, OPINIONS_FILE)
  const metaFile = path.join(folder, 'meta.json')
  if (existsSync(file) && existsSync(metaFile)) {
    const meta = JSON.parse(readFileSync(metaFile, 'utf8')) as GeneratedFile & { version: number }
    if (meta.version === GENERATOR_VERSION && meta.compressedBytes === sizeOf(file)) return { ...meta, path: file, reused: true }
  }
  mkdirSync(folder, { recursive: true })
  const started = Date.now()
  const target = mb * 1024 * 1024
  const parallel = hasCommand('lbzip2')
  const compressor = parallel ? 'lbzip2' : 'bzip2'
  const n = parallel ? 1 : Math.max(1, Math.min(os.cpus().length, 8))
  const parts = Array.from({ length: n }, (_, i) => startCompressor(compressor, parallel ? ['-c', '-9'] : ['-c', '-9'], path.join(folder, `part-${i}.bz2.tmp`)))
  const gen = new OpinionRows()
  let textBytes = 0
  let lastLog = Date.now()
  const header = OPINIONS_TABLE.columns.join(',') + '\n'
  const write = (c: Compressor, s: string) => new Promise<void>((resolve, reject) => {
    const ok = c.child.stdin!.write(s, (err) => { if (err) reject(err) })
    if (ok) resolve(); else c.child.stdin!.once('drain', resolve)
  })
  await write(parts[0], header)
  textBytes += header.length
  const compressed = () => parts.reduce((s, p) => s + sizeOf(p.out), 0)
  // ~1 MB blocks of rows, to whichever compressor takes them; the compressed size is checked between blocks.
  let turn = 0
  for (;;) {
    let block = ''
    while (block.length < 1 << 20) block += gen.next()
    textBytes += Buffer.byteLength(block)
    await write(parts[turn++ % n], block)
    if (turn % 16 === 0) {
      // What is still inside the compressors is about 1/ratio of what they have not written yet; stop a little early.
      const have = compressed()
      const ratio = have > 0 ? textBytes / have : 4
      if (have + (n * 2 * (1 << 20)) / ratio >= target) break
      if (Date.now() - lastLog > 5000) { lastLog = Date.now(); log(`  generating: ${(have / 1048576).toFixed(0)} of ${mb} MB compressed, ${gen.rows.toLocaleString('en-US')} rows, ${((Date.now() - started) / 1000).toFixed(0)} s`) }
    }
  }
  for (const p of parts) p.child.stdin!.end()
  await Promise.all(parts.map((p) => p.done))
  // One file: the streams one after the other.
  const tmp = `${file}.tmp`
  const out = createWriteStream(tmp)
  for (const p of parts) {
    for await (const chunk of createReadStream(p.out, { highWaterMark: 4 << 20 })) {
      if (!out.write(chunk)) await new Promise((r) => out.once('drain', r))
    }
  }
  await new Promise<void>((resolve, reject) => { out.once('error', reject); out.end(() => resolve()) })
  for (const p of parts) rmSync(p.out)
  renameSync(tmp, file)
  const meta = { version: GENERATOR_VERSION, path: file, rows: gen.rows, textBytes, compressedBytes: sizeOf(file), seconds: (Date.now() - started) / 1000, reused: false, compressor: `${compressor}${n > 1 ? ` ×${n}` : ''}` }
  writeFileSync(metaFile, JSON.stringify(meta, null, 2))
  return meta
}
