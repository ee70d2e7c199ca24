/**
 * An MP3 the role no longer uses (its record deleted, or the record's path changed) is removed.
 * Never a file another record still names: the role's own paths carry their record's id and are
 * that record's alone; any other (a reference path two records may share) is kept while another
 * record's state names it. A file already gone is fine (a replayed delete).
 */
import { rm } from 'node:fs/promises'
import { isOwnMp3Path, isServableMp3Path } from '../../domain/audio/paths.js'
import { underRoot } from './convert.js'
import type { StateStore } from './state.js'

/** Removes `mp3Path` once record `id` no longer uses it; false when it is kept (another record names it, or it is not an MP3 path of ours). */
export async function removeUnusedMp3(storageDir: string, states: StateStore, id: number, mp3Path: string): Promise<boolean> {
  const file = isServableMp3Path(mp3Path) ? underRoot(storageDir, mp3Path) : undefined
  if (!file) return false
  if (!isOwnMp3Path(mp3Path, id) && (await states.list()).some((s) => s.id !== id && s.state.mp3Path === mp3Path)) return false
  await rm(file, { force: true })
  return true
}
