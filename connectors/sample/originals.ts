/**
 * Real originals for a handful of the sample's oral arguments, so a first start has recordings
 * for the audio role to process and the podcasts have episodes: a few seconds each of
 * speech-like sound (a voiced tone whose pitch wanders, in syllables and pauses, over a little
 * room noise) synthesized by ffmpeg at 44.1 kHz, as WAV and as MP3 carrying junk tags the role
 * must not keep. Written once into the storage root; skipped with one line when ffmpeg is missing
 * and cannot be installed.
 */
import { existsSync } from 'node:fs'
import { mkdir, rename } from 'node:fs/promises'
import path from 'node:path'
import { spawn } from 'node:child_process'
import { ensureFfmpeg } from '../../infra/debian.js'

export const SAMPLE_ORIGINALS_DIR = 'originals/sample'

/** The originals, in the order the generator hands them to the first audio records. */
export const SAMPLE_ORIGINALS: readonly { name: string; seconds: number; pitch: number }[] = [
  { name: 'argument-1.wav', seconds: 6, pitch: 118 },
  { name: 'argument-2.mp3', seconds: 5, pitch: 205 },
  { name: 'argument-3.wav', seconds: 4, pitch: 135 },
  { name: 'argument-4.mp3', seconds: 7, pitch: 180 },
  { name: 'argument-5.wav', seconds: 5, pitch: 100 },
  { name: 'argument-6.mp3', seconds: 4, pitch: 220 },
]

/** ffmpeg's arguments for one speech-like original, WAV or (with junk tags) MP3: by `out`'s extension unless `format` says. */
export function speechLikeArgs(seconds: number, pitch: number, out: string, format: 'wav' | 'mp3' = out.endsWith('.mp3') ? 'mp3' : 'wav'): string[] {
  // Pitch wanders ±15 % three times a second; syllables at 4 Hz; a pause whenever the slow wave dips.
  const voice = `0.5*sin(2*PI*(${pitch}+${Math.round(pitch * 0.15)}*sin(2*PI*3*t))*t)*(0.55+0.45*sin(2*PI*4*t))*gt(sin(2*PI*0.6*t)\\,-0.5)`
  const args = ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y',
    '-f', 'lavfi', '-i', `aevalsrc=${voice}:s=44100:d=${seconds}`,
    '-f', 'lavfi', '-i', `anoisesrc=d=${seconds}:c=pink:r=44100:a=0.02`,
    '-filter_complex', '[0:a][1:a]amix=inputs=2:normalize=0,lowpass=f=3400', '-ar', '44100', '-ac', '1']
  if (format === 'mp3') {
    args.push('-c:a', 'libmp3lame', '-b:a', '128k', '-id3v2_version', '3',
      '-metadata', 'title=TRACK01 (ripped)', '-metadata', 'artist=Unknown Artist', '-metadata', 'album=Court recorder export',
      '-metadata', 'comment=encoded by RecorderPro trial', '-metadata', 'genre=Speech', '-f', 'mp3')
  } else {
    args.push('-c:a', 'pcm_s16le', '-f', 'wav')
  }
  return [...args, out]
}

function run(program: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: ['ignore', 'ignore', 'pipe'] })
    let err = ''
    child.stderr.on('data', (d: Buffer) => { err += d.toString() })
    child.on('error', reject)
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg exited with ${code}: ${err.trim().slice(-300)}`))))
  })
}

/** Writes the originals that are missing under `storageDir`; false (after one log line) when ffmpeg is not there. */
export async function makeSampleOriginals(storageDir: string, log: (m: string) => void): Promise<boolean> {
  const dir = path.join(storageDir, SAMPLE_ORIGINALS_DIR)
  const missing = SAMPLE_ORIGINALS.filter((o) => !existsSync(path.join(dir, o.name)))
  if (!missing.length) return true
  let ffmpeg: string
  try { ffmpeg = (await ensureFfmpeg(log)).ffmpeg } catch (err) {
    log(`sample audio originals skipped: ffmpeg is not installed and could not be (${(err as Error).message.slice(0, 200)})`)
    return false
  }
  await mkdir(dir, { recursive: true })
  for (const o of missing) {
    const file = path.join(dir, o.name)
    const tmp = `${file}.${process.pid}.tmp`
    await run(ffmpeg, speechLikeArgs(o.seconds, o.pitch, tmp, o.name.endsWith('.mp3') ? 'mp3' : 'wav'))
    await rename(tmp, file)
  }
  return true
}
