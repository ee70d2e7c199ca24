/**
 * What every fuzzed answer must be, and the check that no request value reached ClickHouse as SQL
 * text: never a 5xx (501 only where a route says it has no implementation yet); every 4xx a body in
 * the negotiated format, in JSON `{"detail": …}` or keyed by field (lists of messages); and every
 * distinctive value the request carried absent from the text of every statement run meanwhile.
 */
import type { CompiledSql } from '../../../core/sql.js'
import type { Catalogue } from '../../../schemas/catalogue/index.js'
import { columnOf } from '../../../schemas/define.js'
import type { FuzzRequest } from './generate.js'

export interface Answer { status: number; headers: Record<string, unknown>; body: string }

/** What is wrong with an answer (undefined when nothing is). */
export function checkAnswer(req: FuzzRequest, res: Answer): string | undefined {
  const type = String(res.headers['content-type'] ?? '')
  if (res.status >= 500) {
    // POST-only names whose POST is not built yet say so with 501 (api/routes/root.ts).
    if (!(res.status === 501 && req.method === 'POST')) return `status ${res.status}`
  }
  if (res.status < 400 || req.method === 'HEAD') return undefined
  if (type.startsWith('application/xml') || type.startsWith('text/xml')) return res.body.trimStart().startsWith('<') ? undefined : 'XML error without XML'
  if (type.startsWith('text/html')) return /<html|<!doctype/i.test(res.body) ? undefined : 'HTML error without HTML'
  if (!type.startsWith('application/json')) return `error with content type ${JSON.stringify(type)}`
  let body: unknown
  try { body = JSON.parse(res.body) } catch { return 'error body is not JSON' }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return 'error body is not a JSON object'
  const o = body as Record<string, unknown>
  if (typeof o.detail === 'string') return undefined
  // Retired versions (v1, v2) answer the reference's 410 shape.
  if (res.status === 410 && 'meta' in o && Array.isArray(o.objects)) return undefined
  const entries = Object.entries(o)
  if (entries.length && entries.every(([, v]) => Array.isArray(v) && v.every((m) => typeof m === 'string'))) return undefined
  return 'error body is neither {"detail": …} nor keyed by field'
}

/** Words that may stand in SQL text for reasons of their own: identifiers of the catalogue, keywords. */
export function legitimateWords(cat: Catalogue, database: string): Set<string> {
  const words = new Set<string>([database, 'FINAL', 'SELECT', 'WHERE', 'ORDER', 'LIMIT', 'OFFSET', 'count', 'groupArray', 'arrayJoin', 'parseDateTime64BestEffort', 'startsWith', 'lower'])
  for (const r of cat.resources) {
    words.add(r.table).add(r.name)
    for (const [n, d] of Object.entries(r.fields)) words.add(n).add(columnOf(n, d))
    for (const n of Object.keys(r.filters)) words.add(n)
  }
  return words
}

/** The probes of a request worth looking for: long enough, and not a word SQL may hold anyway. */
const PLACEHOLDER = /^\{\w+:[\w()]+\}$/

export function distinctive(probes: readonly string[], legit: Set<string>): string[] {
  const out = new Set<string>()
  for (const p of probes) {
    for (const piece of [p, ...p.split(',')]) {
      const bare = piece.replace(/^-+/, '').replace(/!$/, '')
      // Plain words may be (parts of) identifiers and keywords; markers and hostile values are not.
      // A piece that is only a query-parameter placeholder (`{p1:String}`) spells what every
      // statement holds for its bound values, so finding it says nothing; the rest of its value
      // is still probed.
      if (bare.length < 5 || /^[A-Za-z_]+$/.test(bare) || PLACEHOLDER.test(bare) || legit.has(bare) || legit.has(bare.toLowerCase())) continue
      out.add(piece.length > 2000 ? piece.slice(0, 2000) : piece)
    }
  }
  return [...out]
}

/** The probes found in SQL text, with the statement (shortened) that holds each. */
export function leaks(probes: readonly string[], statements: readonly CompiledSql[]): string[] {
  const found: string[] = []
  for (const p of probes) {
    const s = statements.find((x) => x.query.includes(p))
    if (s) found.push(`${JSON.stringify(p.slice(0, 80))} in ${JSON.stringify(s.query.slice(0, 300))}`)
  }
  return found
}
