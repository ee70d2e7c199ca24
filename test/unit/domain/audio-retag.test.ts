/** A made MP3 re-tagged in place (a court's new name): new artist and album, the same audio and pictures, no temporary file left. */
import t from 'tap'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { ensureFfmpeg } from '../../../infra/debian.js'
import { probe, run, transcodeArgs } from '../../../streams/audio/ffmpeg.js'
import { renderPng } from '../../../streams/audio/art.js'
import { retagMp3 } from '../../../streams/audio/retag.js'
import { TMP_DIR } from '../../../streams/audio/convert.js'
import { audioTags, courtTags } from '../../../domain/audio/tags.js'

const tools = await ensureFfmpeg()
const storage = mkdtempSync(path.join(tmpdir(), 'lds-audio-retag-'))
t.teardown(() => rmSync(storage, { recursive: true, force: true }))
const square = (fill: string) => renderPng(`<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><rect width="16" height="16" fill="${fill}"/></svg>`)
writeFileSync(path.join(storage, 'seal.png'), square('red'))
writeFileSync(path.join(storage, 'logo.png'), square('blue'))
const rel = 'mp3/2024/03/05/a_v._b_1.mp3'
mkdirSync(path.join(storage, 'mp3/2024/03/05'), { recursive: true })
await run(tools.ffmpeg, ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'sine=f=220:d=2', path.join(storage, 'in.wav')], 30_000)
const tags = audioTags({ id: 1, caseName: 'A v. B', courtName: 'Old Court', courtId: 'old', dateArgued: '2024-03-05', docketNumber: '1', recordUrl: 'https://x.org/audio/1/case/' })
await run(tools.ffmpeg, transcodeArgs(path.join(storage, 'in.wav'), path.join(storage, rel), tags, { seal: path.join(storage, 'seal.png'), logo: path.join(storage, 'logo.png') }), 30_000)

t.test('the court\'s new name in the tags; audio, pictures and the other tags as they were', async (t) => {
  const before = await probe(tools, path.join(storage, rel))
  await retagMp3({ tools, storageDir: storage, timeoutMs: 30_000 }, rel, courtTags('New Court'))
  const after = await probe(tools, path.join(storage, rel))
  t.equal(after.tags.artist, 'New Court')
  t.equal(after.tags.album, 'New Court oral arguments')
  t.same({ ...after.tags, artist: before.tags.artist, album: before.tags.album }, before.tags, 'title, date, comment kept')
  t.same(after.pictures, before.pictures, 'both pictures, same types')
  t.same(after.audio, before.audio)
  t.equal(after.durationSeconds, before.durationSeconds)
  t.same(readdirSync(path.join(storage, TMP_DIR)), [], 'no temporary file left')
})

t.test('a path outside the storage root is refused', async (t) => {
  await t.rejects(retagMp3({ tools, storageDir: storage, timeoutMs: 30_000 }, '../x.mp3', courtTags('X')), /not a path under the storage root/)
})
