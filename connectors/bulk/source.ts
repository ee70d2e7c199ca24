/**
 * A bulk file's bytes, decompressed when it is `.bz2`. Decompression runs in a child process
 * (`lbzip2`, which uses every core, when installed; `bzip2` otherwise), so it overlaps with
 * parsing and publishing in this process; a read-ahead buffer of a few MB lets it run on while
 * the consumer awaits a Kafka send, with a fixed bound on memory.
 */
import { createReadStream } from 'node:fs'
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { PassThrough, Transform, pipeline, type Readable } from 'node:stream'
import path from 'node:path'

const CHUNK = 1 << 20
const READ_AHEAD = 4 << 20

export interface Source {
  chunks: AsyncIterable<Buffer>
  /** Bytes of the file (compressed, for .bz2) read so far. */
  bytesRead(): number
  /** What decompresses it: 'lbzip2', 'bzip2', or 'none'. */
  readonly decompressor: string
  /** Resolves once the input is fully read; rejects when it could not be (bzip2 failure, I/O error). */
  finished(): Promise<void>
  close(): void
}

let found: string | undefined
/** The bzip2 program this machine has (it both compresses and decompresses): lbzip2 when on the PATH, else bzip2. `LDS_BZIP2` overrides. */
export function bzip2Command(): string {
  if (process.env.LDS_BZIP2) return process.env.LDS_BZIP2
  found ??= spawnSync('lbzip2', ['--version'], { stdio: 'ignore' }).error ? 'bzip2' : 'lbzip2'
  return found
}

/** The line of the decompressor's stderr that says what is wrong ("Compressed file ends unexpectedly"). */
function firstComplaint(stderr: string): string {
  const lines = stderr.split('\n').map((l) => l.trim().replace(/;$/, '')).filter(Boolean)
  return lines.find((l) => /^l?bzip2: /.test(l))?.replace(/^l?bzip2: /, '') ?? lines[0] ?? 'no message'
}

export function openSource(file: string): Source {
  let bytes = 0
  const compressed = /\.bz2$/i.test(file)
  // Compressed input in small reads: a compressed MB is several MB of text, and progress is counted on it.
  const raw = createReadStream(file, { highWaterMark: compressed ? 64 * 1024 : CHUNK })
  if (!compressed) {
    let failure: Error | undefined
    raw.on('error', (err) => { failure ??= err })
    const counted = (async function* () {
      for await (const b of raw) { bytes += (b as Buffer).length; yield b as Buffer }
    })()
    return {
      chunks: counted, bytesRead: () => bytes, decompressor: 'none',
      finished: async () => { if (failure) throw failure },
      close: () => raw.destroy(),
    }
  }
  const command = bzip2Command()
  const child: ChildProcess = spawn(command, ['-dc'], { stdio: ['pipe', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr!.on('data', (d) => { if (stderr.length < 4000) stderr += d })
  let failure: Error | undefined
  const exited = new Promise<number | null>((resolve) => {
    child.on('error', (err: NodeJS.ErrnoException) => {
      failure ??= err.code === 'ENOENT' ? new Error(`the ${command} command is needed to read .bz2 files and was not found`) : err
      resolve(null)
    })
    child.on('close', (code) => resolve(code))
  })
  const counter = new Transform({ transform(chunk: Buffer, _enc, cb) { bytes += chunk.length; cb(null, chunk) } })
  let closing = false
  pipeline(raw, counter, child.stdin!, (err) => {
    // EPIPE when the decompressor stops early (bad data, or we closed it) is reported through its exit code instead.
    if (err && !closing && (err as NodeJS.ErrnoException).code !== 'EPIPE') failure ??= err
  })
  const ahead = new PassThrough({ highWaterMark: READ_AHEAD })
  pipeline(child.stdout!, ahead, () => {})
  return {
    chunks: ahead as Readable as AsyncIterable<Buffer>,
    bytesRead: () => bytes,
    decompressor: command,
    async finished() {
      const code = await exited
      if (failure) throw failure
      if (code !== 0) throw new Error(`${command} could not decompress ${path.basename(file)} (exit ${code}): ${firstComplaint(stderr)}`)
    },
    close() {
      closing = true
      raw.destroy()
      ahead.destroy()
      if (child.exitCode === null && child.signalCode === null) child.kill()
    },
  }
}
