/**
 * New tags on a made MP3 without transcoding it: ffmpeg copies every stream (the audio and both
 * pictures) into the temporary folder with the new tags, ffprobe checks the copy, and it is
 * renamed over the file, so a reader never sees a partial one.
 */
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises'
import path from 'node:path'
import type { AudioTags } from '../../domain/audio/tags.js'
import { TMP_DIR, underRoot } from './convert.js'
import { probe, retagArgs, run, type FfmpegTools } from './ffmpeg.js'

export async function retagMp3(deps: { tools: FfmpegTools; storageDir: string; timeoutMs: number }, mp3Path: string, tags: Partial<AudioTags>): Promise<void> {
  const final = underRoot(deps.storageDir, mp3Path)
  if (!final) throw new Error(`not a path under the storage root: ${mp3Path}`)
  const tmpRoot = path.join(deps.storageDir, TMP_DIR)
  await mkdir(tmpRoot, { recursive: true })
  const tmp = await mkdtemp(path.join(tmpRoot, `${process.pid}-`))
  try {
    const out = path.join(tmp, 'out.mp3')
    await run(deps.tools.ffmpeg, retagArgs(final, out, tags), deps.timeoutMs)
    const [before, after] = await Promise.all([probe(deps.tools, final), probe(deps.tools, out)])
    if (!after.audio || after.pictures.length !== before.pictures.length) throw new Error(`the re-tagged copy of ${mp3Path} lost its audio or pictures`)
    await rename(out, final)
  } finally {
    await rm(tmp, { recursive: true, force: true })
  }
}
