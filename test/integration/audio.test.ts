/**
 * The audio role on the real stack: originals (local and over HTTP) become the spec's MP3 with the
 * record's tags and both pictures, the record is published processed, the file is served with
 * ranges and ETags, the podcasts list it, the same original again is a no-op, and each kind of
 * bad original ends as a failed state with its reason.
 */
import t from 'tap'
import { existsSync, mkdtempSync, writeFileSync, statSync, rmSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { spawnSync } from 'node:child_process'
import Parser from 'rss-parser'
import { countFinal, testStack, waitFor } from '../helpers/stack.js'
import { consumedAll } from '../helpers/consumed.js'
import { startAudioOrigin } from '../helpers/audio-origin.js'
import { startProcessors, stopAll } from '../../bin/runtime.js'
import { openPublisher } from '../../core/events/publisher.js'
import { entityTopic } from '../../schemas/events/index.js'
import { sql, ident } from '../../core/sql.js'
import { buildApp } from '../../api/app.js'
import { ensureFfmpeg } from '../../infra/debian.js'
import { createRemoteFileFetcher } from '../../clients/remote-file.js'
import { speechLikeArgs } from '../../connectors/sample/originals.js'
import { startAudioProcessor, AUDIO_PROCESSOR } from '../../streams/audio/processor.js'
import { createStateStore } from '../../streams/audio/state.js'
import { probe } from '../../streams/audio/ffmpeg.js'

const tools = await ensureFfmpeg()
const storage = mkdtempSync(path.join(tmpdir(), 'lds-audio-'))
t.teardown(() => rmSync(storage, { recursive: true, force: true }))
const work = mkdtempSync(path.join(tmpdir(), 'lds-audio-src-'))
t.teardown(() => rmSync(work, { recursive: true, force: true }))

// The originals: a 4-second WAV in the storage root, an MP3 with junk tags and a truncated WAV on a "court's server".
mkdirSync(path.join(storage, 'originals'), { recursive: true })
const wav = path.join(storage, 'originals', 'argument.wav')
const junkMp3 = path.join(work, 'argument.mp3')
const longWav = path.join(work, 'long.wav')
for (const [file, seconds] of [[wav, 4], [junkMp3, 3], [longWav, 6]] as const) {
  const r = spawnSync(tools.ffmpeg, speechLikeArgs(seconds, 150, file))
  if (r.status !== 0) throw new Error(`ffmpeg could not make ${file}: ${r.stderr}`)
}
const truncated = path.join(work, 'truncated.wav')
writeFileSync(truncated, (await import('node:fs')).readFileSync(longWav).subarray(0, Math.floor(statSync(longWav).size / 3)))
writeFileSync(path.join(storage, 'originals', 'notes.mp3'), 'These are the clerk\'s notes, not a recording.\n')
const origin = await startAudioOrigin({ '/argument.mp3': junkMp3, '/truncated.wav': truncated })
t.teardown(() => origin.close())

const rt = await testStack(t, { LDS_STORAGE_DIR: storage, LDS_AUDIO_ALLOW_INSECURE: '1', LDS_AUDIO_CONCURRENCY: '2' })
const parts = await startProcessors(rt, ['table-sink'])
const publisher = await openPublisher(rt)
// Short deadlines, so the server that never answers costs seconds; no retries, so failures are final.
const fetcher = createRemoteFileFetcher({ allowInsecure: true, limits: { connectTimeoutMs: 2_000, totalTimeoutMs: 3_000, maxBytes: 64 * 1024 * 1024 } })
const audio = startAudioProcessor({ ...rt, publisher, tools, fetcher, retryDelaysMs: [] })
await audio.started
parts.push(publisher, audio)
t.teardown(() => stopAll(rt, parts))

const app = await buildApp({ cfg: rt.cfg, db: rt.db, catalogue: rt.catalogue, log: rt.log })
t.teardown(() => app.close())

const ts = '2024-05-01T10:00:00Z'
const pub = await openPublisher(rt)
t.teardown(() => pub.stop())
await pub.upsert('courts', { id: 'ca9', full_name: 'Court of Appeals for the Ninth Circuit', short_name: 'Ninth Circuit', position: 1, jurisdiction: 'F', citation_string: '9th Cir.', date_modified: ts })
await pub.upsert('dockets', { id: 1, court_id: 'ca9', case_name: 'Smith & Sons v. Jones', docket_number: '23-1234', date_argued: '2024-03-05', source: 0, slug: 'smith', date_created: ts, date_modified: ts })
await pub.flush()
await waitFor(async () => (await countFinal(rt, 'dockets')) === 1, 'the docket applied', 30_000)

const base = { docket_id: 1, panel_ids: [], source: 'C', case_name_short: 'Smith', case_name_full: '', sha1: 'a'.repeat(40), local_path_mp3: '', filepath_ia: '', duration: null, processing_complete: false, blocked: false, stt_status: 0, stt_transcript: '', date_created: ts, date_modified: ts }
const records = {
  wav: { ...base, id: 1, case_name: 'Smith & Sons v. Jones', download_url: null, local_path_original_file: 'originals/argument.wav' },
  mp3: { ...base, id: 2, case_name: 'Doe v. <Roe>', download_url: origin.url('/argument.mp3'), local_path_original_file: '' },
  text: { ...base, id: 3, case_name: 'Notes v. Recording', download_url: null, local_path_original_file: 'originals/notes.mp3' },
  truncated: { ...base, id: 4, case_name: 'Short v. Cut', download_url: origin.url('/truncated.wav'), local_path_original_file: '' },
  huge: { ...base, id: 5, case_name: 'Big v. Bigger', download_url: origin.url('/huge.mp3'), local_path_original_file: '' },
  private: { ...base, id: 6, case_name: 'Inside v. Outside', download_url: origin.url('/to-private.mp3'), local_path_original_file: '' },
  hang: { ...base, id: 7, case_name: 'Waiting v. Godot', download_url: origin.url('/hang.mp3'), local_path_original_file: '' },
}
for (const r of Object.values(records)) await pub.upsert('audio', r)
await pub.flush()

const states = createStateStore(storage)
await waitFor(async () => {
  for (const r of Object.values(records)) if (!(await states.get(r.id))) return false
  return true
}, 'every record handled', 60_000, 200)
const rows = async () => new Map((await rt.db.query<Record<string, unknown>>(sql`SELECT id, local_path_mp3, duration, processing_complete, sha1, blocked FROM ${ident(rt.cfg.clickhouseDatabase)}.audio FINAL`)).map((r) => [Number(r.id), r]))
await waitFor(async () => {
  const now = await rows()
  return now.get(1)?.processing_complete === true && now.get(2)?.processing_complete === true
}, 'the processed records applied', 30_000, 200)

t.test('the MP3: 22,050 Hz, 48 kbit/s, mono, the record\'s tags, seal and logo, its duration', async (t) => {
  const row = (await rows()).get(1)!
  t.match(row.local_path_mp3, /^mp3\/2024\/03\/05\/smith_sons_v\._jones_1\.mp3$/, 'the path from the day argued and the case name')
  const p = await probe(tools, path.join(storage, String(row.local_path_mp3)))
  t.same(p.audio, { codec: 'mp3', sampleRate: 22_050, bitRate: 48_000, channels: 1 })
  t.ok(Math.abs(p.durationSeconds - 4) < 1, `duration ${p.durationSeconds} within 1 s of the original's 4 s`)
  t.equal(row.duration, Math.round(p.durationSeconds), 'the record\'s duration is the file\'s')
  t.match(p.tags, { title: 'Smith & Sons v. Jones', artist: 'Court of Appeals for the Ninth Circuit', album: 'Court of Appeals for the Ninth Circuit oral arguments' })
  t.match(p.tags.date, /^2024/, 'the year argued')
  t.match(p.tags.comment, /23-1234/, 'the comment names the docket number')
  t.match(p.tags.comment, /\/audio\/1\/case\//, 'and the record\'s URL')
  t.same(p.pictures.map((x) => x.type).sort(), ['Cover (front)', 'Publisher/Studio logotype'], 'both APIC frames, front cover and publisher logotype')
  t.equal(p.pictures.every((x) => x.codec === 'png'), true, 'generated seal and logo are PNG')
  const head = Buffer.alloc(4)
  const fd = (await import('node:fs')).openSync(path.join(storage, String(row.local_path_mp3)), 'r');
  (await import('node:fs')).readSync(fd, head, 0, 4, 0)
  t.same([...head], [0x49, 0x44, 0x33, 3], 'an ID3v2.3 tag')
})

t.test('an MP3 original over HTTP: its junk tags are not kept', async (t) => {
  const row = (await rows()).get(2)!
  const p = await probe(tools, path.join(storage, String(row.local_path_mp3)))
  t.equal(p.tags.title, 'Doe v. <Roe>')
  t.notOk(Object.values(p.tags).some((v) => /ripped|RecorderPro|Unknown Artist/.test(v)), 'none of the original\'s tags')
  t.equal(p.audio?.sampleRate, 22_050)
  t.equal(row.sha1, (await import('node:crypto')).createHash('sha1').update((await import('node:fs')).readFileSync(junkMp3)).digest('hex'), 'sha1 is the original\'s')
})

t.test('bad originals end as failed states with their reasons', async (t) => {
  const expected: [number, string][] = [[3, 'undecodable'], [4, 'undecodable'], [5, 'too-large'], [6, 'forbidden-address'], [7, 'timeout']]
  for (const [id, reason] of expected) {
    const s = await states.get(id)
    t.equal(s?.status, 'failed', `record ${id} failed`)
    t.equal(s?.reason, reason, `record ${id}: ${s?.message}`)
  }
  const now = await rows()
  for (const [id] of expected) t.equal(now.get(id)?.processing_complete, false, `record ${id} is not processing_complete`)
})

t.test('served: Range, ETag, audio/mpeg; a blocked record\'s file is not', async (t) => {
  const file = String((await rows()).get(1)!.local_path_mp3)
  const size = statSync(path.join(storage, file)).size
  const full = await app.inject({ url: `/storage/${file}` })
  t.equal(full.statusCode, 200)
  t.match(full.headers['content-type'], /^audio\/mpeg/)
  t.equal(Number(full.headers['content-length']), size)
  t.ok(full.headers.etag, 'an ETag')
  t.match(full.headers['cache-control'], /max-age/)
  const part = await app.inject({ url: `/storage/${file}`, headers: { range: 'bytes=0-99' } })
  t.equal(part.statusCode, 206)
  t.equal(part.rawPayload.length, 100)
  t.equal(part.headers['content-range'], `bytes 0-99/${size}`)
  t.equal((await app.inject({ url: `/storage/${file}`, headers: { 'if-none-match': String(full.headers.etag) } })).statusCode, 304)
  t.equal((await app.inject({ url: '/storage/originals/argument.wav' })).statusCode, 404, 'originals are not served')
  t.equal((await app.inject({ url: '/storage/mp3/2024/03/05/..%2F..%2F..%2F..%2F.audio-state%2F1.json' })).statusCode, 404)

  const blocked = (await rows()).get(2)!
  await pub.upsert('audio', { ...records.mp3, local_path_mp3: blocked.local_path_mp3, duration: blocked.duration, sha1: blocked.sha1, processing_complete: true, blocked: true })
  await pub.flush()
  await waitFor(async () => (await rows()).get(2)?.blocked === true, 'the block applied', 30_000, 200)
  t.equal((await app.inject({ url: `/storage/${String(blocked.local_path_mp3)}` })).statusCode, 404, 'a blocked record\'s file is not served')
})

t.test('podcasts: RSS 2.0 with iTunes tags, read by a feed parser', async (t) => {
  const parser = new Parser({ customFields: { item: ['itunes:duration'] } })
  for (const url of ['/podcasts/ca9/', '/podcasts/all/']) {
    const res = await app.inject({ url })
    t.equal(res.statusCode, 200, url)
    t.match(res.headers['content-type'], /^application\/rss\+xml/)
    const feed = await parser.parseString(res.body)
    t.equal(feed.items.length, 1, `${url}: the processed, unblocked argument only`)
    const item = feed.items[0]
    const file = String((await rows()).get(1)!.local_path_mp3)
    t.equal(item.title, 'Smith & Sons v. Jones')
    t.equal(item.enclosure?.url, `${rt.cfg.publicBaseUrl}/storage/${file}`)
    t.equal(Number(item.enclosure?.length), statSync(path.join(storage, file)).size, 'the enclosure\'s byte length')
    t.equal(item.enclosure?.type, 'audio/mpeg')
    t.match(item['itunes:duration'], /^0:00:0[3-5]$/)
    t.ok(feed.itunes?.image, `${url}: channel art`)
    const art = await app.inject({ url: String(feed.itunes!.image).replace(rt.cfg.publicBaseUrl, '') })
    t.equal(art.statusCode, 200, 'the channel art is served')
    t.match(art.headers['content-type'], /^image\//)
  }
  t.equal((await app.inject({ url: '/podcasts/nosuchcourt/' })).statusCode, 404)
})

t.test('the same original again is a no-op', async (t) => {
  const file = path.join(storage, String((await rows()).get(1)!.local_path_mp3))
  const before = statSync(file).mtimeMs
  const ends = async () => {
    const admin = rt.kafka.admin()
    await admin.connect()
    try { return (await admin.fetchTopicOffsets(entityTopic(rt.cfg, 'audio'))).reduce((n, p) => n + Number(p.high), 0) } finally { await admin.disconnect() }
  }
  // The record as the role published it, published again by a source.
  const row = (await rows()).get(1)!
  await pub.upsert('audio', { ...records.wav, local_path_mp3: row.local_path_mp3, duration: row.duration, sha1: row.sha1, processing_complete: true })
  await pub.flush()
  const published = await ends()
  await consumedAll(rt, AUDIO_PROCESSOR, [entityTopic(rt.cfg, 'audio')], 'the audio role')
  await publisher.flush()
  t.equal(await ends(), published, 'no new version published')
  t.equal(statSync(file).mtimeMs, before, 'the file was not made again')
})

const audioVersions = async () => {
  const admin = rt.kafka.admin()
  await admin.connect()
  try { return (await admin.fetchTopicOffsets(entityTopic(rt.cfg, 'audio'))).reduce((n, p) => n + Number(p.high), 0) } finally { await admin.disconnect() }
}

t.test('a new case name: the MP3 moves to its new path, the old file is removed and not served', async (t) => {
  const old = String((await states.get(1))!.mp3Path)
  t.ok(existsSync(path.join(storage, old)), 'the old file is there before')
  // A source's new version: it knows nothing of the role's path.
  await pub.upsert('audio', { ...records.wav, case_name: 'Smith & Sons v. Jonas' })
  await pub.flush()
  await waitFor(async () => (await rows()).get(1)?.local_path_mp3 !== old && (await rows()).get(1)?.processing_complete === true, 'the new path published', 30_000, 200)
  const now = String((await rows()).get(1)!.local_path_mp3)
  t.equal(now, 'mp3/2024/03/05/smith_sons_v._jonas_1.mp3')
  t.ok(existsSync(path.join(storage, now)), 'the new file is there')
  await waitFor(async () => !existsSync(path.join(storage, old)), 'the old file removed', 30_000, 100)
  t.equal((await app.inject({ url: `/storage/${old}` })).statusCode, 404, 'the old path is not served')
  t.equal((await app.inject({ url: `/storage/${now}` })).statusCode, 200, 'the new one is')
})

t.test('two records naming one path: two files, neither overwrites the other', async (t) => {
  const shared = 'mp3/2024/03/05/same_v._name.mp3'
  for (const id of [8, 9]) await pub.upsert('audio', { ...records.wav, id, case_name: 'Same v. Name', case_name_short: `Same ${id}`, local_path_mp3: shared })
  await pub.flush()
  await waitFor(async () => (await states.get(8))?.status === 'done' && (await states.get(9))?.status === 'done', 'both made', 30_000, 200)
  const [a, b] = [String((await states.get(8))!.mp3Path), String((await states.get(9))!.mp3Path)]
  t.same([a, b], ['mp3/2024/03/05/same_v._name_8.mp3', 'mp3/2024/03/05/same_v._name_9.mp3'], 'each record its own path')
  for (const [file, id] of [[a, 8], [b, 9]] as const) t.match((await probe(tools, path.join(storage, file))).tags.comment, `/audio/${id}/case/`, `${file} is record ${id}'s`)
  t.notOk(existsSync(path.join(storage, shared)), 'nothing written at the shared path')
})

t.test('a deleted record: its file is removed and not served; a replayed delete is harmless', async (t) => {
  await waitFor(async () => (await rows()).get(8)?.processing_complete === true, 'record 8 applied', 30_000, 200)
  const file = String((await rows()).get(8)!.local_path_mp3)
  t.equal((await app.inject({ url: `/storage/${file}` })).statusCode, 200, 'served while the record is there')
  await pub.delete('audio', 8)
  await pub.flush()
  await waitFor(async () => !existsSync(path.join(storage, file)), 'the deleted record\'s file removed', 30_000, 100)
  t.equal(await states.get(8), undefined, 'its state is gone')
  t.equal((await app.inject({ url: `/storage/${file}` })).statusCode, 404, 'not served')
  await pub.delete('audio', 8)
  await pub.flush()
  await consumedAll(rt, AUDIO_PROCESSOR, [entityTopic(rt.cfg, 'audio')], 'the audio role')
  t.ok(existsSync(path.join(storage, String((await states.get(9))!.mp3Path))), 'the record of the same name keeps its file')
})

t.test('a court renamed: its MP3s are re-tagged in place, no new version published', async (t) => {
  const file = path.join(storage, String((await states.get(1))!.mp3Path))
  const before = await probe(tools, file)
  const versions = await audioVersions()
  await pub.upsert('courts', { id: 'ca9', full_name: 'United States Court of Appeals for the Ninth Circuit', short_name: 'Ninth Circuit', position: 1, jurisdiction: 'F', citation_string: '9th Cir.', date_modified: '2024-06-01T00:00:00Z' })
  await pub.flush()
  await waitFor(async () => (await probe(tools, file)).tags.artist === 'United States Court of Appeals for the Ninth Circuit', 'the new artist tag', 30_000, 200)
  const after = await probe(tools, file)
  t.equal(after.tags.album, 'United States Court of Appeals for the Ninth Circuit oral arguments')
  t.equal(after.tags.title, before.tags.title, 'the other tags kept')
  t.same(after.pictures, before.pictures, 'the same pictures, of the same types')
  t.same(after.audio, before.audio, 'the same audio (stream copy)')
  t.ok(Math.abs(after.durationSeconds - before.durationSeconds) < 0.1, 'of the same length')
  t.equal((await states.get(1))?.tags?.artist, 'United States Court of Appeals for the Ninth Circuit', 'the state knows the new tags')
  await consumedAll(rt, AUDIO_PROCESSOR, [entityTopic(rt.cfg, 'courts')], 'the audio role')
  await publisher.flush()
  t.equal(await audioVersions(), versions, 'no new version of the record published')
})
