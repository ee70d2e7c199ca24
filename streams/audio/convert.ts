/**
 * One record's original made into its MP3: the original read (from the storage root, or fetched
 * through the safe fetcher into a private temporary folder), its SHA-1 taken, and — unless the
 * MP3 already there was made from the same original with the same tags — transcoded into the
 * temporary folder, checked with ffprobe, and renamed into place: a reader never sees a partial
 * file. The temporary folder goes on every path.
 */
import { createHash } from 'node:crypto'
import { createReadStream, existsSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, rename, rm, stat } from 'node:fs/promises'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import type { RemoteFileFetcher } from '../../clients/remote-file.js'
import { RemoteFileError } from '../../clients/remote-file.js'
import { outputFingerprint, type AudioTags } from '../../domain/audio/tags.js'
import type { ArtStore } from './art.js'
import { AudioFailure } from './failure.js'
import { probe, run, transcodeArgs, type FfmpegTools } from './ffmpeg.js'
import type { AudioState } from './state.js'

export const TMP_DIR = '.audio-tmp'

export interface ConvertDeps {
  tools: FfmpegTools
  fetcher: RemoteFileFetcher
  art: ArtStore
  storageDir: string
  transcodeTimeoutMs: number
}

export interface ConvertJob {
  record: Record<string, unknown>
  courtId: string
  courtName: string
  tags: AudioTags
  mp3Path: string
  previous?: AudioState
}

export interface Converted {
  /** False when the file in place was already made from this original with these tags. */
  made: boolean
  originalSha1: string
  fingerprint: string
  durationSeconds: number
  bytes: number
}

/** A path under the storage root, or undefined when `rel` would leave it. */
export function underRoot(root: string, rel: string): string | undefined {
  if (!rel || path.isAbsolute(rel)) return undefined
  const full = path.resolve(root, rel)
  return full.startsWith(path.resolve(root) + path.sep) ? full : undefined
}

async function sha1Of(file: string): Promise<string> {
  const hash = createHash('sha1')
  await pipeline(createReadStream(file), hash)
  return hash.digest('hex')
}

/** The original on disk: the local file the record names when it is there, else the download. */
async function original(deps: ConvertDeps, record: Record<string, unknown>, tmp: string): Promise<{ file: string; sha1: string }> {
  const local = underRoot(deps.storageDir, String(record.local_path_original_file ?? ''))
  if (local && existsSync(local)) return { file: local, sha1: await sha1Of(local) }
  const url = typeof record.download_url === 'string' ? record.download_url : ''
  if (!url) throw new AudioFailure('no-original', 'neither the local original nor a download_url is there')
  const file = path.join(tmp, 'original')
  try {
    const got = await deps.fetcher.fetchToFile(url, file)
    return { file, sha1: got.sha1 }
  } catch (err) {
    if (err instanceof RemoteFileError) throw new AudioFailure(err.reason, err.message)
    throw err
  }
}

export async function convert(deps: ConvertDeps, job: ConvertJob): Promise<Converted> {
  const tmpRoot = path.join(deps.storageDir, TMP_DIR)
  await mkdir(tmpRoot, { recursive: true })
  const tmp = await mkdtemp(path.join(tmpRoot, `${process.pid}-`))
  try {
    const src = await original(deps, job.record, tmp)
    const fingerprint = outputFingerprint(src.sha1, job.tags)
    const final = underRoot(deps.storageDir, job.mp3Path)
    if (!final) throw new Error(`not a path under the storage root: ${job.mp3Path}`)
    const prev = job.previous
    if (prev?.status === 'done' && prev.fingerprint === fingerprint && prev.mp3Path === job.mp3Path && existsSync(final)) {
      const kept = await probe(deps.tools, final)
      return { made: false, originalSha1: src.sha1, fingerprint, durationSeconds: kept.durationSeconds, bytes: (await stat(final)).size }
    }
    const [seal, logo] = await Promise.all([deps.art.seal(job.courtId, job.courtName), deps.art.logo()])
    const out = path.join(tmp, 'out.mp3')
    // ffmpeg is the judge of the original: not media, no audio stream, or damaged (-xerror) all fail it.
    await run(deps.tools.ffmpeg, transcodeArgs(src.file, out, job.tags, { seal, logo }), deps.transcodeTimeoutMs).catch((err: Error) => {
      if (err instanceof AudioFailure) throw err
      throw new AudioFailure('undecodable', `ffmpeg could not decode the original: ${err.message}`)
    })
    const made = await probe(deps.tools, out)
    if (!made.audio || !(made.durationSeconds > 0)) throw new AudioFailure('transcode-failed', 'ffmpeg made no audio')
    await mkdir(path.dirname(final), { recursive: true })
    await rename(out, final)
    return { made: true, originalSha1: src.sha1, fingerprint, durationSeconds: made.durationSeconds, bytes: (await stat(final)).size }
  } finally {
    await rm(tmp, { recursive: true, force: true })
  }
}

/** Temporary folders of processes that are gone (killed mid-transcode): removed when the role starts. */
export async function removeStaleTemporaries(storageDir: string): Promise<number> {
  const root = path.join(storageDir, TMP_DIR)
  let names: string[]
  try { names = await readdir(root) } catch { return 0 }
  let removed = 0
  for (const name of names) {
    const pid = Number(name.split('-')[0])
    if (pid === process.pid || (Number.isInteger(pid) && alive(pid))) continue
    await rm(path.join(root, name), { recursive: true, force: true })
    removed++
  }
  return removed
}

function alive(pid: number): boolean {
  try { process.kill(pid, 0); return true } catch (err) { return (err as NodeJS.ErrnoException).code === 'EPERM' }
}
