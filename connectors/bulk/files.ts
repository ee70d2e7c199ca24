/**
 * Which bulk-data file holds which resource. Files are named `<table>-<YYYY-MM-DD>.csv[.bz2]`;
 * the table part decides the resource. The reference's export has used both the hyphenated
 * names (`people-db-people`, `opinion-clusters`) and the database table names
 * (`search_docket`, `people_db_person`), so both are recognised. Files are listed in the
 * catalogue's dependency order (a resource after those its foreign keys point at), and within
 * a resource oldest first, so a newer snapshot's rows are published last.
 */
import { readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { RESOURCES } from '../../schemas/catalogue/index.js'

/** Table part of a file name → resource. */
export const FILE_RESOURCES: Readonly<Record<string, string>> = {
  courts: 'courts', search_court: 'courts',
  'people-db-schools': 'schools', people_db_school: 'schools',
  'people-db-people': 'people', people_db_person: 'people',
  'people-db-sources': 'sources', people_db_source: 'sources',
  'people-db-educations': 'educations', people_db_education: 'educations',
  'people-db-political-affiliations': 'political-affiliations', people_db_politicalaffiliation: 'political-affiliations',
  'people-db-aba-ratings': 'aba-ratings', people_db_abarating: 'aba-ratings',
  'people-db-positions': 'positions', people_db_position: 'positions',
  'people-db-retention-events': 'retention-events', people_db_retentionevent: 'retention-events',
  dockets: 'dockets', search_docket: 'dockets',
  'opinion-clusters': 'clusters', search_opinioncluster: 'clusters',
  citations: 'citations', search_citation: 'citations',
  opinions: 'opinions', search_opinion: 'opinions',
  'citation-map': 'opinions-cited', search_opinionscited: 'opinions-cited',
  'oral-arguments': 'audio', audio: 'audio', audio_audio: 'audio',
}

const ORDER = RESOURCES.map((r) => r.name)

/** The table part of a bulk file name: 'opinion-clusters-2024-08-31.csv.bz2' → 'opinion-clusters'. */
export function tableOf(file: string): string | undefined {
  const m = /^(.+?)(?:[-_]\d{4}-\d{2}-\d{2}(?:[T_][\d:.-]+Z?)?)?\.csv(?:\.bz2)?$/i.exec(path.basename(file))
  return m?.[1]
}

/** The resource a bulk file holds, or undefined when it holds none of ours. */
export function resourceOf(file: string): string | undefined {
  const table = tableOf(file)
  return table === undefined ? undefined : FILE_RESOURCES[table] ?? FILE_RESOURCES[table.toLowerCase()]
}

export interface BulkFile { path: string; resource: string; bytes: number }

/** The bulk files of a folder, in dependency order, and the names of the CSV files that hold no resource of ours. */
export function scanBulkDir(dir: string): { files: BulkFile[]; skipped: string[] } {
  const files: BulkFile[] = []
  const skipped: string[] = []
  for (const name of readdirSync(dir).sort()) {
    if (!/\.csv(\.bz2)?$/i.test(name)) continue
    const full = path.join(dir, name)
    const st = statSync(full)
    if (!st.isFile()) continue
    const resource = resourceOf(name)
    if (!resource) skipped.push(name)
    else files.push({ path: full, resource, bytes: st.size })
  }
  const rank = (r: string) => (ORDER.indexOf(r) + 1 || ORDER.length + 1)
  // Names within a resource sort by their date part, so older snapshots come first.
  const dated = (f: BulkFile) => `${/\d{4}-\d{2}-\d{2}/.exec(path.basename(f.path))?.[0] ?? ''} ${path.basename(f.path)}`
  files.sort((a, b) => rank(a.resource) - rank(b.resource) || dated(a).localeCompare(dated(b)))
  return { files, skipped }
}

/** The bulk files of a folder that hold a resource of ours, in dependency order. */
export function listBulkFiles(dir: string): BulkFile[] {
  return scanBulkDir(dir).files
}
