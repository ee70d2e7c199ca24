/**
 * Court ids from a parenthetical's court text ('9th Cir.' → 'ca9', 'S.D.N.Y.' → 'nysd'), using the
 * `citation_string` of data/courts/courts.json, compared without spaces, periods and case.
 * Loaded once, at the first parenthetical that names a court.
 */
import { readFileSync } from 'node:fs'
import { projectFile } from '../../core/programs.js'

let byString: Map<string, string> | null = null

const squash = (s: string) => s.replace(/[\s.,]/g, '').toLowerCase()

function load(): Map<string, string> {
  const m = new Map<string, string>()
  try {
    const courts = JSON.parse(readFileSync(projectFile('data', 'courts', 'courts.json'), 'utf8')) as { id: string; citation_string?: string }[]
    for (const c of courts) {
      if (!c.citation_string) continue
      const k = squash(c.citation_string)
      if (k && !m.has(k)) m.set(k, c.id)
    }
  } catch {
    // courts data missing: court ids are optional
  }
  return m
}

export function courtIdFor(courtText: string): string | undefined {
  const k = squash(courtText)
  if (!k) return undefined
  if (!byString) byString = load()
  return byString.get(k)
}
