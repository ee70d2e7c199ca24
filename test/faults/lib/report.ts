/** The suite's result: a Markdown table on stdout, the same with details in report.md and report.json. */
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { CaseResult } from './case.js'

const fmt = (n: number) => n.toLocaleString('en-US')
const cell = (s: string) => s.replace(/\|/g, '\\|')

export function resultTable(results: readonly CaseResult[]): string {
  const rows = results.map((r) => `| ${r.id}. ${cell(r.title)} | ${fmt(r.published)} | ${fmt(r.rows)} | ${fmt(r.lost)} | ${fmt(r.duplicated)} | ${r.seconds.toFixed(1)} s | ${r.pass ? 'pass' : 'FAIL'}: ${cell(r.reason)} |`)
  return ['| case | published | rows (FINAL) | lost | duplicated | time | result |', '|---|---:|---:|---:|---:|---:|---|', ...rows].join('\n')
}

export interface RunInfo { startedAt: string; seconds: number; small: boolean; only?: number[]; infraSeconds: number; command: string; partitions: number; sideBySide: number[]; loadAverage: number[] }

export function writeReports(dir: string, info: RunInfo, results: readonly CaseResult[]): { md: string; json: string } {
  mkdirSync(dir, { recursive: true })
  const md = path.join(dir, 'report.md')
  const json = path.join(dir, 'report.json')
  const passed = results.filter((r) => r.pass).length
  const text = [
    `# Fault suite${info.small ? ' (--small)' : ''}`, '',
    `\`${info.command}\`, started ${info.startedAt}, ${info.seconds.toFixed(1)} s in all (infrastructure up: ${info.infraSeconds.toFixed(1)} s); ${passed} of ${results.length} cases passed.`,
    `${info.partitions} partitions per topic; ${info.sideBySide.length > 1 ? `cases ${info.sideBySide.join(', ')} side by side, the others one by one` : 'one case at a time'}; load average at the end ${info.loadAverage.map((l) => l.toFixed(1)).join(' ')}.`, '',
    resultTable(results), '',
    '## Details', '',
    ...results.flatMap((r) => [`### ${r.id}. ${r.title}: ${r.pass ? 'pass' : 'FAIL'}`, '', r.reason, '', '```json', JSON.stringify(r.details, null, 2), '```', '']),
  ].join('\n')
  writeFileSync(md, text)
  writeFileSync(json, JSON.stringify({ ...info, passed, failed: results.length - passed, results }, null, 2) + '\n')
  return { md, json }
}
