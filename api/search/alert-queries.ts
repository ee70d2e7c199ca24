/**
 * What the alert writes ask of search: whether a stored query matches everything (refused), and
 * how many documents it matched over the estimation window (the reference's frequency check).
 */
import { searchRequest, requestAst, and, type Node } from '../../domain/search/index.js'
import { ALERT_ESTIMATION_DAYS } from '../../domain/alerts/index.js'
import type { SearchEngine } from './engine.js'

const DATE_FIELD = { o: 'dateFiled', r: 'dateFiled', d: 'dateFiled', rd: 'entry_date_filed', p: 'dob', oa: 'dateArgued' } as const

const paramsOf = (query: string) => new URLSearchParams(query.replace(/^\?/, ''))

export function alertQueries(engine: SearchEngine, now: () => number = Date.now) {
  return {
    isMatchAll(query: string): boolean {
      try { return requestAst(searchRequest(paramsOf(query), now())).kind === 'all' } catch { return false }
    },
    async estimate(query: string): Promise<number | null> {
      let r
      try { r = searchRequest(paramsOf(query), now()) } catch { return null }
      const since = new Date(now() - ALERT_ESTIMATION_DAYS * 86_400_000).toISOString().slice(0, 10)
      const recent: Node = { kind: 'range', field: DATE_FIELD[r.type], lower: since, upper: null, includeLower: true, includeUpper: true }
      return engine.count({ ...r, filters: and([r.filters, recent]) })
    },
  }
}
