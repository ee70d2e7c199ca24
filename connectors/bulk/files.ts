/**
 * Which bulk-data file holds which resource. Files are named `<table>-<date>.csv[.bz2]`; the
 * table prefix decides the resource, and files are read in the catalogue's dependency order.
 */
import { readdirSync, statSync } from 'node:fs'
import path from 'node:path'

/** Table-file prefix → resource. */
export const FILE_RESOURCES: Record<string, string> = {
  courts: 'courts',
  'people-db-schools': 'schools',
  'people-db-people': 'people',
  'people-db-sources': 'sources',
  'people-db-educations': 'educations',
  'people-db-political-affiliations': 'political-affiliations',
  'people-db-aba-ratings': 'aba-ratings',
  'people-db-positions': 'positions',
  'people-db-retention-events': 'retention-events',
  dockets: 'dockets',
  'opinion-clusters': 'clusters',
  citations: 'citations',
  opinions: 'opinions',
  'citation-map': 'opinions-cited',
  audio: 'audio',
}
const ORDER = Object.keys(FILE_RESOURCES)

export interface BulkFile { path: string; resource: string; prefix: string; bytes: number }

export function prefixOf(file: string): string | undefined {
  const m = /^(.+?)(?:-\d{4}-\d{2}-\d{2})?\.csv(?:\.bz2)?$/.exec(path.basename(file))
  return m?.[1]
}

/** The bulk files of a folder that hold a known resource, in dependency order; others are reported as skipped. */
export function listBulkFiles(dir: string): { files: BulkFile[]; skipped: string[] } {
  const files: BulkFile[] = []
  const skipped: string[] = []
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name)
    if (!statSync(full).isFile() || !/\.csv(\.bz2)?$/.test(name)) continue
    const prefix = prefixOf(name)
    const resource = prefix ? FILE_RESOURCES[prefix] : undefined
    if (!resource) { skipped.push(name); continue }
    files.push({ path: full, resource, prefix: prefix!, bytes: statSync(full).size })
  }
  files.sort((a, b) => ORDER.indexOf(a.prefix) - ORDER.indexOf(b.prefix) || a.path.localeCompare(b.path))
  return { files, skipped }
}
