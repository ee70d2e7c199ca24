/**
 * The ID3 values an optimized oral-argument MP3 carries, reset from the record (never carried over
 * from the court's original): what a podcast app or music player shows for the argument.
 */
import { createHash } from 'node:crypto'

export interface ArgumentFacts {
  id: number
  caseName: string
  courtName: string
  courtId: string
  /** YYYY-MM-DD: the docket's date argued, else the record's creation date. */
  dateArgued: string
  docketNumber: string
  /** The record's page on this service (absolute URL). */
  recordUrl: string
}

export interface AudioTags {
  title: string
  artist: string
  album: string
  year: string
  /** ID3v2.3 TDAT: DDMM. */
  date: string
  comment: string
}

export function audioTags(f: ArgumentFacts): AudioTags {
  const [year, month, day] = f.dateArgued.split('-')
  const docket = f.docketNumber ? `Docket number: ${f.docketNumber}. ` : ''
  return {
    title: f.caseName || `Oral argument ${f.id}`,
    ...courtTags(f.courtName),
    year,
    date: `${day}${month}`,
    comment: `Argued ${f.dateArgued}. ${docket}${f.recordUrl}`,
  }
}

/** The tags that name the court: what a court's rename changes in its arguments' files. */
export function courtTags(courtName: string): Pick<AudioTags, 'artist' | 'album'> {
  return { artist: courtName, album: `${courtName} oral arguments` }
}

/**
 * What an output file was made from: the original's SHA-1 and the tag values. The same original
 * with the same tags is already done; either changing makes a new file.
 */
export function outputFingerprint(originalSha1: string, tags: AudioTags): string {
  return createHash('sha1').update(originalSha1).update('\0').update(JSON.stringify(tags)).digest('hex')
}
