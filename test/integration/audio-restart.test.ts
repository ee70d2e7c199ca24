/**
 * The audio role killed (SIGKILL) mid-transcode and started again: no file appears at the record's
 * path while it is down (the finished transcode sat under a temporary name), the restarted role
 * removes the dead run's temporary files, makes the MP3 once and publishes one processed version.
 */
import t from 'tap'
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { countFinal, testStack, waitFor } from '../helpers/stack.js'
import { consumedAll } from '../helpers/consumed.js'
import { startProcessors, stopAll } from '../../bin/runtime.js'
import { openPublisher } from '../../core/events/publisher.js'
import { entityTopic } from '../../schemas/events/index.js'
import { ensureFfmpeg } from '../../infra/debian.js'
import { speechLikeArgs } from '../../connectors/sample/originals.js'
import { createStateStore } from '../../streams/audio/state.js'
import { AUDIO_PROCESSOR } from '../../streams/audio/processor.js'
import { TMP_DIR } from '../../streams/audio/convert.js'
import { programArgs } from '../../core/programs.js'

const tools = await ensureFfmpeg()
const storage = mkdtempSync(path.join(tmpdir(), 'lds-audio-restart-'))
t.teardown(() => rmSync(storage, { recursive: true, force: true }))
mkdirSync(path.join(storage, 'originals'))
const made = spawnSync(tools.ffmpeg, speechLikeArgs(3, 140, path.join(storage, 'originals', 'argument.wav')))
if (made.status !== 0) throw new Error(String(made.stderr))
// An ffmpeg that finishes its work, says so, then stalls before the role can rename its output.
const marker = path.join(storage, 'transcoded')
const stalling = path.join(storage, 'stalling-ffmpeg.sh')
writeFileSync(stalling, `#!/bin/sh\n"${tools.ffmpeg}" "$@" || exit $?\ntouch "${marker}"\nsleep 120\n`)
chmodSync(stalling, 0o755)

const rt = await testStack(t, { LDS_STORAGE_DIR: storage })
const parts = await startProcessors(rt, ['table-sink'])
t.teardown(() => stopAll(rt, parts))
const children = new Set<ChildProcess>()
t.teardown(() => { for (const c of children) killGroup(c) })

function startRole(ffmpeg?: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, programArgs('test/helpers/audio-child.ts'), {
    detached: true, stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, LDS_TOPIC_PREFIX: rt.cfg.topicPrefix, CLICKHOUSE_DATABASE: rt.cfg.clickhouseDatabase, LDS_STORAGE_DIR: storage, LOG_LEVEL: 'error', ...(ffmpeg ? { AUDIO_CHILD_FFMPEG: ffmpeg } : {}) },
  })
  children.add(child)
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => { if (d.toString().includes('ready')) resolve(child) })
    child.on('exit', (code) => reject(new Error(`the audio role exited with ${code} before it was ready`)))
  })
}

/** SIGKILL to the role and the programs it started, as a container kill does. */
function killGroup(child: ChildProcess): void {
  try { process.kill(-child.pid!, 'SIGKILL') } catch { /* gone */ }
  children.delete(child)
}

const audioTopic = entityTopic(rt.cfg, 'audio')
const ts = '2024-05-01T10:00:00Z'
const pub = await openPublisher(rt)
t.teardown(() => pub.stop())
await pub.upsert('courts', { id: 'ca1', full_name: 'Court of Appeals for the First Circuit', short_name: 'First Circuit', position: 1, jurisdiction: 'F', citation_string: '1st Cir.', date_modified: ts })
await pub.upsert('dockets', { id: 1, court_id: 'ca1', case_name: 'Kill v. Restart', docket_number: '24-1', date_argued: '2024-04-02', source: 0, slug: 'kill', date_created: ts, date_modified: ts })
await pub.flush()
await waitFor(async () => (await countFinal(rt, 'dockets')) === 1, 'the docket applied', 30_000)

t.test('killed mid-transcode and started again: processed once, no partial file', async (t) => {
  const first = await startRole(stalling)
  await pub.upsert('audio', {
    id: 1, docket_id: 1, panel_ids: [], source: 'C', case_name: 'Kill v. Restart', case_name_short: 'Kill', case_name_full: '', sha1: 'b'.repeat(40),
    download_url: null, local_path_mp3: '', local_path_original_file: 'originals/argument.wav', filepath_ia: '', duration: null,
    processing_complete: false, blocked: false, stt_status: 0, stt_transcript: '', date_created: ts, date_modified: ts,
  })
  await pub.flush()
  const versions = async () => {
    const admin = rt.kafka.admin()
    await admin.connect()
    try { return (await admin.fetchTopicOffsets(audioTopic)).reduce((n, p) => n + Number(p.high), 0) } finally { await admin.disconnect() }
  }

  await waitFor(async () => existsSync(marker), 'the first run transcoded (and stalls before the rename)', 60_000, 100)
  killGroup(first)

  t.equal(existsSync(path.join(storage, 'mp3')), false, 'no MP3 at any record path while the role is down')
  t.ok(readdirSync(path.join(storage, TMP_DIR)).length > 0, 'the killed run left its temporary folder')
  t.equal(await versions(), 1, 'nothing published by the killed run')

  const second = await startRole()
  t.teardown(() => killGroup(second))
  const states = createStateStore(storage)
  await waitFor(async () => (await states.get(1))?.status === 'done', 'the restarted role made the MP3', 60_000, 200)
  await consumedAll(rt, AUDIO_PROCESSOR, [audioTopic], 'the audio role')
  const state = (await states.get(1))!
  t.ok(existsSync(path.join(storage, String(state.mp3Path))), 'the MP3 is in place')
  t.same(readdirSync(path.join(storage, TMP_DIR)), [], 'the dead run\'s temporary folder removed, none left')
  t.equal(await versions(), 2, 'one processed version published')
})
