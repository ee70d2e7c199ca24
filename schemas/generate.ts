/**
 * Writes the derived artefacts (Avro schemas and ClickHouse DDL) to schemas/generated/, so a
 * change to the catalogue shows up in review as a diff. A unit test checks they are current.
 * Run: npx tsx schemas/generate.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { catalogue, type Catalogue } from './catalogue/index.js'
import { toAvro } from './avro.js'
import { toDdl } from './ddl.js'
import { projectFile } from '../core/programs.js'

export const GENERATED_DIR = projectFile('schemas', 'generated')

export function generatedFiles(cat: Catalogue = catalogue): Map<string, string> {
  const files = new Map<string, string>()
  for (const r of cat.stored) {
    files.set(`${r.name}.avsc`, JSON.stringify(toAvro(cat, r), null, 2) + '\n')
    files.set(`${r.name}.sql`, toDdl(cat, r, 'lds') + ';\n')
  }
  return files
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  mkdirSync(GENERATED_DIR, { recursive: true })
  for (const [name, text] of generatedFiles()) writeFileSync(path.join(GENERATED_DIR, name), text)
  console.log(`wrote ${generatedFiles().size} files to ${GENERATED_DIR}`)
}
