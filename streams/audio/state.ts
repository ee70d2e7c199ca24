/**
 * What the audio role knows of each record it handled, one small JSON file per record under the
 * storage root (`.audio-state/<id>.json`, written to a temporary name and renamed): beside the
 * MP3s it describes, so a restarted or moved role sees the same state as its files.
 * `done`: the MP3 at `mp3Path` was made from the original with SHA-1 `originalSha1` and the tags
 * `tags` (of court `courtId`; `fingerprint` of both). `failed`: the last attempt failed (`reason`); `nextAttemptAt` when it is tried
 * again (null: not before the record changes); `record` is the version to try again with; `mp3Path`
 * the file an earlier success left, if any (removed once it is replaced or the record deleted).
 * A deleted record's state is removed with its file.
 */
import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { AudioTags } from '../../domain/audio/tags.js'

export interface AudioState {
  status: 'done' | 'failed'
  /** The record's source as last seen: its sha1, download_url and local original (a change is a new original). */
  source: string
  fingerprint?: string
  originalSha1?: string
  mp3Path?: string
  courtId?: string
  tags?: AudioTags
  failures?: number
  reason?: string
  message?: string
  nextAttemptAt?: number | null
  record?: Record<string, unknown>
}

export const STATE_DIR = '.audio-state'

export interface StateStore {
  get(id: number): Promise<AudioState | undefined>
  put(id: number, state: AudioState): Promise<void>
  /** Forgets a record (a file already gone is fine). */
  remove(id: number): Promise<void>
  /** Every record's state. */
  list(): Promise<{ id: number; state: AudioState }[]>
  /** Failed records whose next attempt is due at `now`. */
  due(now: number): Promise<{ id: number; state: AudioState }[]>
}

export function createStateStore(storageDir: string): StateStore {
  const dir = path.join(storageDir, STATE_DIR)
  const fileOf = (id: number) => path.join(dir, `${id}.json`)
  let made: Promise<unknown> | undefined
  return {
    async get(id) {
      try { return JSON.parse(await readFile(fileOf(id), 'utf8')) as AudioState } catch { return undefined }
    },
    async put(id, state) {
      await (made ??= mkdir(dir, { recursive: true }))
      const tmp = `${fileOf(id)}.${process.pid}.tmp`
      await writeFile(tmp, JSON.stringify(state))
      await rename(tmp, fileOf(id))
    },
    async remove(id) {
      await rm(fileOf(id), { force: true })
    },
    async list() {
      let names: string[]
      try { names = await readdir(dir) } catch { return [] }
      const out: { id: number; state: AudioState }[] = []
      for (const name of names) {
        if (!name.endsWith('.json')) continue
        const id = Number(name.replace(/\.json$/, ''))
        if (!Number.isInteger(id)) continue
        const state = await this.get(id)
        if (state) out.push({ id, state })
      }
      return out
    },
    async due(now) {
      return (await this.list()).filter(({ state }) => state.status === 'failed' && state.nextAttemptAt != null && state.nextAttemptAt <= now)
    },
  }
}

/** A record's source as the state compares it: a change to any part is a new original. */
export function sourceKey(record: Record<string, unknown>): string {
  return JSON.stringify([record.sha1 ?? '', record.download_url ?? '', record.local_path_original_file ?? ''])
}
