/**
 * The reporter databases as shipped in data/reporters/ (BSD-licensed, see data/reporters/LICENSE):
 * regex fragments, case reporters, laws and journals. Read from disk once, when the matcher is built.
 */
import { readFileSync } from 'node:fs'
import { projectFile } from '../../core/programs.js'

export interface RawReporter {
  name: string
  cite_type: string
  editions: Record<string, { start: string | null; end: string | null; regexes?: string[] }>
  variations?: Record<string, string>
  examples?: string[]
}

export interface RawLaw {
  name: string
  cite_type: string
  start: string | null
  end: string | null
  regexes: string[]
  variations: string[]
  examples: string[]
}

export interface ReporterData {
  /** regexes.json: named regex fragments, nested */
  regexes: Record<string, unknown>
  reporters: Record<string, RawReporter[]>
  laws: Record<string, RawLaw[]>
  journals: Record<string, RawLaw[]>
}

const readJson = (file: string): unknown => JSON.parse(readFileSync(projectFile('data', file), 'utf8'))

export function loadReporterData(): ReporterData {
  return {
    regexes: readJson('reporters/regexes.json') as Record<string, unknown>,
    reporters: readJson('reporters/reporters.json') as Record<string, RawReporter[]>,
    laws: readJson('reporters/laws.json') as Record<string, RawLaw[]>,
    journals: readJson('reporters/journals.json') as Record<string, RawLaw[]>,
  }
}
