/** Files the audio role no longer uses: removed, except one another record still names; a file already gone is fine. */
import t from 'tap'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { removeUnusedMp3 } from '../../../streams/audio/cleanup.js'
import { createStateStore } from '../../../streams/audio/state.js'

const storage = mkdtempSync(path.join(tmpdir(), 'lds-audio-cleanup-'))
t.teardown(() => rmSync(storage, { recursive: true, force: true }))
const states = createStateStore(storage)
const put = (rel: string) => { mkdirSync(path.dirname(path.join(storage, rel)), { recursive: true }); writeFileSync(path.join(storage, rel), 'mp3') }

t.test('the record\'s own file is removed; again is fine', async (t) => {
  const own = 'mp3/2024/03/05/a_v._b_1.mp3'
  put(own)
  t.equal(await removeUnusedMp3(storage, states, 1, own), true)
  t.notOk(existsSync(path.join(storage, own)))
  t.equal(await removeUnusedMp3(storage, states, 1, own), true, 'already gone: no error')
})

t.test('a shared (reference) path another record still names is kept, then removed once none does', async (t) => {
  const shared = 'mp3/2014/06/09/ander_v._leo.mp3'
  put(shared)
  await states.put(2, { status: 'done', source: 's', mp3Path: shared })
  await states.put(3, { status: 'done', source: 's', mp3Path: shared })
  t.equal(await removeUnusedMp3(storage, states, 2, shared), false)
  t.ok(existsSync(path.join(storage, shared)), 'record 3 still names it')
  await states.remove(3)
  t.equal(await removeUnusedMp3(storage, states, 2, shared), true)
  t.notOk(existsSync(path.join(storage, shared)))
})

t.test('nothing outside the role\'s MP3 paths is touched', async (t) => {
  put('originals/argument.wav')
  for (const bad of ['originals/argument.wav', 'mp3/2024/03/05/../../../originals/argument.wav', '/etc/hostname']) t.equal(await removeUnusedMp3(storage, states, 1, bad), false, bad)
  t.ok(existsSync(path.join(storage, 'originals/argument.wav')))
})
