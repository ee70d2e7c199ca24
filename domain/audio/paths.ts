/**
 * Where an oral argument's optimized MP3 lives under the storage root, in the reference's shape
 * `mp3/<yyyy>/<mm>/<dd>/<case_name>.mp3` (the day argued) with the record's id added,
 * `<case_name>_<id>.mp3`, and which paths the file server may hand out.
 */

/** The field's limit (schemas/catalogue/audio.ts): the path must fit in it. */
export const MP3_PATH_MAX = 100

/** A path this service writes and serves: nothing else under the storage root is reachable by it. */
const MP3_PATH = /^mp3\/\d{4}\/\d{2}\/\d{2}\/[a-z0-9][a-z0-9_.-]*\.mp3$/

export function isServableMp3Path(path: string): boolean {
  return path.length <= MP3_PATH_MAX && MP3_PATH.test(path) && !path.includes('..')
}

/** Lower case, runs of anything but letters and digits to one underscore (the reference's file names). */
export function fileSlug(name: string, max = 60): string {
  const slug = name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9.]+/g, '_').replace(/\.{2,}/g, '.').replace(/^[_.]+|[_.]+$/g, '')
  return slug.slice(0, max).replace(/[_.]+$/, '') || 'argument'
}

/** Whether `path` is one the role names for record `id`: servable, its file name ending in `_<id>.mp3`. */
export function isOwnMp3Path(path: string, id: number): boolean {
  return isServableMp3Path(path) && path.endsWith(`_${id}.mp3`)
}

/**
 * The record's MP3 path: the one it names when that is the role's own path for this record (a
 * version the role published, or an export of this service), else one made from the day argued,
 * the case name and the id. The id makes it unique: a path another record names (the reference's
 * `<case_name>.mp3`, shared by two arguments of one name) is never taken, so no file is overwritten
 * by another record's; and reprocessing the same record gives the same path.
 */
export function mp3PathFor(record: { id: number; case_name?: unknown; local_path_mp3?: unknown }, dateArgued: string): string {
  const named = typeof record.local_path_mp3 === 'string' ? record.local_path_mp3 : ''
  if (isOwnMp3Path(named, record.id)) return named
  const [y, m, d] = dateArgued.split('-')
  return `mp3/${y}/${m}/${d}/${fileSlug(String(record.case_name ?? ''))}_${record.id}.mp3`
}

/** The seals and the logo the MP3s carry and the podcasts show, under the storage root: `art/<court id|publisher-logo>.<png|jpg|jpeg>`. */
export const ART_DIR = 'art'
export const LOGO_NAME = 'publisher-logo'
export const ART_EXTENSIONS = ['png', 'jpg', 'jpeg'] as const

/** Court ids are short lower-case words (schemas/catalogue/courts.ts): nothing else names an art file. */
export function isArtName(name: string): boolean {
  return /^[a-z0-9_-]{1,40}$/.test(name)
}

/** The kind of image a file's first bytes show (the pictures an MP3 carries and players show: PNG or JPEG), else undefined. */
export function imageKindOf(head: Uint8Array): 'png' | 'jpg' | undefined {
  if (head.length >= 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) => head[i] === b)) return 'png'
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpg'
  return undefined
}
