/** The configured logo: a PNG or JPEG (by its bytes) is taken; anything else stops the audio role at its start with one line naming the file. */
import t from 'tap'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { imageKindOf } from '../../../domain/audio/paths.js'
import { checkLogoFile, renderPng } from '../../../streams/audio/art.js'
import { startAudioProcessor, type AudioDeps } from '../../../streams/audio/processor.js'
import { loadConfig } from '../../../core/config.js'
import { createLogger } from '../../../core/logger.js'

const dir = mkdtempSync(path.join(tmpdir(), 'lds-audio-art-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))
const png = path.join(dir, 'logo.png')
writeFileSync(png, renderPng('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="red"/></svg>'))
const jpeg = path.join(dir, 'logo.jpeg')
writeFileSync(jpeg, Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46]))
// A GIF and an SVG, each under a name that claims PNG: the bytes decide.
const gif = path.join(dir, 'gif-logo.png')
writeFileSync(gif, Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'))
const svg = path.join(dir, 'logo.svg')
writeFileSync(svg, '<svg xmlns="http://www.w3.org/2000/svg"/>')

t.test('image kind by content', async (t) => {
  t.equal(imageKindOf(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), 'png')
  t.equal(imageKindOf(Buffer.from([0xff, 0xd8, 0xff, 0xdb])), 'jpg')
  t.equal(imageKindOf(Buffer.from('GIF89a')), undefined)
  t.equal(imageKindOf(Buffer.alloc(0)), undefined)
})

t.test('a PNG or JPEG logo is taken, with its kind', async (t) => {
  t.equal(checkLogoFile(png), 'png')
  t.equal(checkLogoFile(jpeg), 'jpg')
})

t.test('any other logo is one clear line naming the file and what was expected', async (t) => {
  for (const bad of [gif, svg]) {
    t.throws(() => checkLogoFile(bad), { message: `LDS_AUDIO_LOGO ${bad} is not a PNG or JPEG image (by its content): expected a PNG or JPEG image` })
  }
  const missing = path.join(dir, 'nope.png')
  t.throws(() => checkLogoFile(missing), { message: `LDS_AUDIO_LOGO ${missing} cannot be read (ENOENT): expected a PNG or JPEG image` })
})

t.test('the audio role does not start with such a logo', async (t) => {
  const cfg = loadConfig({ ...process.env, LDS_AUDIO_LOGO: gif, LDS_STORAGE_DIR: dir, LOG_LEVEL: 'silent' })
  // Nothing past the configuration is reached: no broker, registry or database is needed.
  const deps = { cfg, log: createLogger(cfg) } as unknown as AudioDeps
  t.throws(() => startAudioProcessor(deps), { message: /^LDS_AUDIO_LOGO .*gif-logo\.png is not a PNG or JPEG image/ })
})
