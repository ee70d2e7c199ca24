/**
 * The pictures every MP3 carries and the podcasts show: a court's seal (LDS_SEALS_DIR/<court id>.png
 * or .jpg, else one generated from its name) and the publisher's logo (LDS_AUDIO_LOGO, a PNG or
 * JPEG — anything else stops the role at its start — else generated). Each is made once and kept under the storage root (`art/`), written to a temporary
 * name and renamed, so the API can serve it as channel art and ffmpeg can read it as an input.
 */
import { closeSync, existsSync, openSync, readSync } from 'node:fs'
import { copyFile, mkdir, rename, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { Resvg } from '@resvg/resvg-js'
import { logoSvg, sealSvg } from '../../domain/audio/art-svg.js'
import { ART_DIR, ART_EXTENSIONS as IMAGE_EXTENSIONS, LOGO_NAME, imageKindOf, isArtName } from '../../domain/audio/paths.js'

export function renderPng(svg: string): Buffer {
  return new Resvg(svg, { font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' }, fitTo: { mode: 'width', value: 600 } }).render().asPng()
}

/**
 * The configured logo's kind, read from its bytes; throws a one-line error naming the file when it
 * is missing or not a PNG or JPEG (what ID3 pictures and podcast apps take), so a wrong logo stops
 * the role at its start instead of being replaced by the generated one unnoticed.
 */
export function checkLogoFile(file: string): 'png' | 'jpg' {
  const head = Buffer.alloc(8)
  let read: number
  try {
    const fd = openSync(file, 'r')
    try { read = readSync(fd, head, 0, head.length, 0) } finally { closeSync(fd) }
  } catch (err) {
    throw new Error(`LDS_AUDIO_LOGO ${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}): expected a PNG or JPEG image`)
  }
  const kind = imageKindOf(head.subarray(0, read))
  if (!kind) throw new Error(`LDS_AUDIO_LOGO ${file} is not a PNG or JPEG image (by its content): expected a PNG or JPEG image`)
  return kind
}

export interface ArtStore {
  seal(courtId: string, courtName: string): Promise<string>
  logo(): Promise<string>
}

export function createArtStore(opts: { storageDir: string; sealsDir?: string; logoFile?: string; publisher: string }): ArtStore {
  const made = new Map<string, Promise<string>>()
  const dir = path.join(opts.storageDir, ART_DIR)

  async function keep(name: string, ext: string, write: (tmp: string) => Promise<void>): Promise<string> {
    await mkdir(dir, { recursive: true })
    const file = path.join(dir, `${name}.${ext}`)
    const tmp = `${file}.${process.pid}.tmp`
    await write(tmp)
    await rename(tmp, file)
    return file
  }

  function once(name: string, make: () => Promise<string>): Promise<string> {
    let p = made.get(name)
    if (!p) {
      p = make()
      made.set(name, p)
      p.catch(() => made.delete(name))
    }
    return p
  }

  return {
    seal(courtId, courtName) {
      if (!isArtName(courtId)) return Promise.reject(new Error(`not a court id: ${JSON.stringify(courtId)}`))
      return once(courtId, async () => {
        const configured = opts.sealsDir ? IMAGE_EXTENSIONS.map((ext) => path.join(opts.sealsDir!, `${courtId}.${ext}`)).find((f) => existsSync(f)) : undefined
        if (configured) return keep(courtId, path.extname(configured).slice(1), (tmp) => copyFile(configured, tmp))
        return keep(courtId, 'png', (tmp) => writeFile(tmp, renderPng(sealSvg(courtName, courtId))))
      })
    },
    logo() {
      return once(LOGO_NAME, async () => {
        if (opts.logoFile) return keep(LOGO_NAME, checkLogoFile(opts.logoFile), (tmp) => copyFile(opts.logoFile!, tmp))
        return keep(LOGO_NAME, 'png', (tmp) => writeFile(tmp, renderPng(logoSvg(opts.publisher))))
      })
    },
  }
}
