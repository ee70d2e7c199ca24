/**
 * ffmpeg and ffprobe as the audio role runs them: one process per file, killed when it runs past
 * its deadline. The MP3 settings, the tags and both pictures go into one ffmpeg pass (its ID3v2.3
 * muxer writes an APIC frame per attached picture, the type taken from the stream's comment).
 */
import { spawn } from 'node:child_process'
import type { AudioTags } from '../../domain/audio/tags.js'
import { AudioFailure } from './failure.js'

export interface FfmpegTools { ffmpeg: string; ffprobe: string }

/** The spec's optimized copy: MP3, 22,050 Hz, 48 kbit/s; mono (speech). */
export const MP3_SETTINGS = { sampleRate: 22_050, bitRate: '48k', channels: 1 } as const

/** ID3v2 picture types as ffmpeg names them (ff_id3v2_picture_types): 3 front cover, 0x14 publisher logotype. */
export const PICTURE_TYPES = { frontCover: 'Cover (front)', publisherLogo: 'Publisher/Studio logotype' } as const

export interface RunResult { stdout: string; stderr: string }

/** Runs a program to its end; a non-zero exit or the deadline (SIGKILL) rejects, with the last lines of stderr. */
export function run(program: string, args: readonly string[], timeoutMs: number): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    let timedOut = false
    child.stdout.setEncoding('utf8').on('data', (d: string) => { stdout += d })
    child.stderr.setEncoding('utf8').on('data', (d: string) => { stderr = (stderr + d).slice(-8_000) })
    const timer = setTimeout(() => { timedOut = true; child.kill('SIGKILL') }, timeoutMs)
    child.on('error', (err) => { clearTimeout(timer); reject(err) })
    child.on('close', (code) => {
      clearTimeout(timer)
      if (timedOut) return reject(new AudioFailure('transcode-timeout', `${program} ran past ${timeoutMs} ms and was stopped`))
      if (code !== 0) return reject(Object.assign(new Error(`${program} exited with ${code}: ${lastLines(stderr)}`), { exitCode: code }))
      resolve({ stdout, stderr })
    })
  })
}

function lastLines(text: string): string {
  return text.trim().split('\n').slice(-3).join(' | ').slice(0, 500)
}

/**
 * ffmpeg's arguments: the original's audio only (its own tags and pictures dropped), -xerror so a
 * damaged original (a truncated WAV) fails instead of giving a short file, the pictures copied as
 * they are, and the record's tags.
 */
export function transcodeArgs(input: string, output: string, tags: AudioTags, art: { seal: string; logo: string }): string[] {
  return [
    '-hide_banner', '-nostdin', '-loglevel', 'error', '-xerror', '-y',
    '-i', input, '-i', art.seal, '-i', art.logo,
    '-map', '0:a:0', '-map', '1:v:0', '-map', '2:v:0', '-map_metadata', '-1', '-map_chapters', '-1',
    '-c:a', 'libmp3lame', '-ar', String(MP3_SETTINGS.sampleRate), '-b:a', MP3_SETTINGS.bitRate, '-ac', String(MP3_SETTINGS.channels),
    '-c:v', 'copy', '-disposition:v', 'attached_pic',
    '-metadata:s:v:0', `comment=${PICTURE_TYPES.frontCover}`, '-metadata:s:v:0', 'title=Court seal',
    '-metadata:s:v:1', `comment=${PICTURE_TYPES.publisherLogo}`, '-metadata:s:v:1', 'title=Publisher logo',
    '-metadata', `title=${tags.title}`, '-metadata', `artist=${tags.artist}`, '-metadata', `album=${tags.album}`,
    '-metadata', `date=${tags.year}`, '-metadata', `TDAT=${tags.date}`, '-metadata', `comment=${tags.comment}`,
    '-id3v2_version', '3', '-write_id3v1', '0', '-fflags', '+bitexact', '-f', 'mp3', output,
  ]
}

/**
 * ffmpeg's arguments to give a made MP3 new tags: every stream copied as it is (no transcode; the
 * pictures keep their types and titles), the given tags replacing the file's.
 */
export function retagArgs(input: string, output: string, tags: Partial<AudioTags>): string[] {
  const names: Record<keyof AudioTags, string> = { title: 'title', artist: 'artist', album: 'album', year: 'date', date: 'TDAT', comment: 'comment' }
  const metadata = (Object.keys(tags) as (keyof AudioTags)[]).flatMap((k) => ['-metadata', `${names[k]}=${tags[k]}`])
  return [
    '-hide_banner', '-nostdin', '-loglevel', 'error', '-y', '-i', input, '-map', '0', '-c', 'copy', ...metadata,
    '-id3v2_version', '3', '-write_id3v1', '0', '-fflags', '+bitexact', '-f', 'mp3', output,
  ]
}

export interface Probe {
  formatName: string
  durationSeconds: number
  audio?: { codec: string; sampleRate: number; bitRate: number; channels: number }
  tags: Record<string, string>
  pictures: { codec: string; type: string; title: string }[]
}

/** What ffprobe reads from a file; rejects when it is not media at all. */
export async function probe(tools: FfmpegTools, file: string, timeoutMs = 30_000): Promise<Probe> {
  const { stdout } = await run(tools.ffprobe, ['-v', 'error', '-show_format', '-show_streams', '-of', 'json', file], timeoutMs)
  const data = JSON.parse(stdout) as { format?: { format_name?: string; duration?: string; tags?: Record<string, string> }; streams?: { codec_type?: string; codec_name?: string; sample_rate?: string; bit_rate?: string; channels?: number; tags?: Record<string, string>; disposition?: { attached_pic?: number } }[] }
  const streams = data.streams ?? []
  const a = streams.find((s) => s.codec_type === 'audio')
  return {
    formatName: data.format?.format_name ?? '',
    durationSeconds: Number(data.format?.duration ?? NaN),
    audio: a ? { codec: a.codec_name ?? '', sampleRate: Number(a.sample_rate), bitRate: Number(a.bit_rate), channels: Number(a.channels) } : undefined,
    tags: data.format?.tags ?? {},
    pictures: streams.filter((s) => s.disposition?.attached_pic === 1).map((s) => ({ codec: s.codec_name ?? '', type: s.tags?.comment ?? '', title: s.tags?.title ?? '' })),
  }
}
