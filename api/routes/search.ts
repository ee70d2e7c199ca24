/**
 * `GET /api/rest/v4/search/` and v3's flat variant. Open to anyone (throttled as usual).
 *  - v4: `{count, next, previous, results}` (+ `document_count` for type r), 20 results a page,
 *    cursor pages (`cursor`); results as domain/search/results.ts presents them;
 *  - v3: page-number pages (`page`), one flat row per opinion or document, datetimes for dates,
 *    `court_exact` and `timestamp` instead of `meta`.
 * Bad parameters and query syntax errors answer 400; type `pa` (not served) answers 404.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { LdsError } from '../../core/errors.js'
import { searchRequest, highlighter, presentResult, type SearchRequest } from '../../domain/search/index.js'
import { v3SearchRows } from '../../domain/webhooks/payloads.js'
import { requestOrigin } from '../origin.js'
import { createSearchEngine, afterField, validAfter, validStats, type After, type SearchEngine } from '../search/engine.js'
import type { SearchStats } from '../../domain/search/index.js'
import type { Db } from '../../core/clickhouse.js'

const PAGE_SIZE = 20
/** v3 pages stop here, as the reference's page-number pagination does. */
const MAX_V3_PAGE = 100

/**
 * A v4 cursor: the offset, and for an order by one key the last (key, id) to continue after. A
 * score order also carries the statistics its first page scored with (BM25 scores move with the
 * corpus: a document indexed between two pages changes every document's score, and the next page
 * would continue after a score nobody has any more); a point in time, as search engines give
 * search_after.
 */
interface Cursor { o: number; a?: After; s?: SearchStats }

const encodeCursor = (c: Cursor) => Buffer.from(JSON.stringify(c)).toString('base64url')
function decodeCursor(raw: string): Cursor {
  try {
    const c = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Cursor
    if (Number.isSafeInteger(c.o) && c.o >= 0 && (c.a === undefined || (Number.isSafeInteger(c.a.id) && ['string', 'number'].includes(typeof c.a.value) || c.a?.value === null))) return c
  } catch { /* answered below */ }
  throw new LdsError('LDS_ERR_NOT_FOUND', { detail: 'Invalid cursor' })
}

const OPTIONS_BODY = (name: string) => ({
  name, renders: ['application/json', 'text/html', 'application/xml'],
  parses: ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data', 'application/xml'],
})

function paramsOf(req: FastifyRequest): { url: URL; params: URLSearchParams } {
  const url = new URL(req.url, requestOrigin(req))
  return { url, params: url.searchParams }
}

/** `now` is the app's clock: relative date filters (`filed_after=past 30 days`) count back from it. */
function readRequest(params: URLSearchParams, now: number): SearchRequest {
  if (params.get('type') === 'pa') throw new LdsError('LDS_ERR_NOT_FOUND', { detail: 'Not found.' })
  return searchRequest(params, now)
}

const withParam = (url: URL, set: Record<string, string | null>) => {
  const u = new URL(url.toString())
  for (const [k, v] of Object.entries(set)) if (v === null) u.searchParams.delete(k); else u.searchParams.set(k, v)
  return u.toString()
}

async function presented(engine: SearchEngine, r: SearchRequest, hits: { id: number; score: number }[]) {
  const stored = await engine.results(r.type, hits.map((h) => h.id))
  const h = highlighter(r.query)
  return hits.flatMap((hit) => {
    const s = stored.get(hit.id)
    if (!s) return [] // indexed but its result not written yet: the next request shows it
    return [presentResult(s.result, { type: r.type, score: hit.score, timestamp: s.indexedAt, dateCreated: s.dateCreated, highlighter: h, highlight: r.highlight, query: r.query })]
  })
}

export function registerSearch(app: FastifyInstance, deps: { db: Db; engine?: SearchEngine }): void {
  const engine = deps.engine ?? createSearchEngine(deps.db)
  const describe = { name: 'Search V4 List', description: 'Full-text search over case law, the docket archive, judges and oral arguments.' }

  app.get('/api/rest/v4/search/', { config: { auth: 'public', describe } }, async (req) => {
    const { url, params } = paramsOf(req)
    const r = readRequest(params, app.clock.now())
    const rawCursor = params.get('cursor')
    const cursor: Cursor = rawCursor ? decodeCursor(rawCursor) : { o: 0 }
    if ((cursor.a && !validAfter(r, cursor.a)) || (cursor.s !== undefined && !validStats(r, cursor.s))) throw new LdsError('LDS_ERR_NOT_FOUND', { detail: 'Invalid cursor' })
    const [hits, count, documentCount] = await Promise.all([
      engine.page(r, { limit: PAGE_SIZE + 1, offset: cursor.o, after: cursor.a, stats: cursor.s }),
      engine.count(r),
      r.type === 'r' ? engine.count(r, 'rd') : Promise.resolve(undefined),
    ])
    const more = hits.length > PAGE_SIZE
    const page = hits.slice(0, PAGE_SIZE)
    const last = page[page.length - 1]
    const af = afterField(r)
    const frozen = more && af?.field === 'score' && last ? (cursor.s ?? await engine.stats(r)) : undefined
    const nextCursor: Cursor | null = more ? { o: cursor.o + PAGE_SIZE, ...(af && last ? { a: { value: last.key, id: last.id } } : {}), ...(frozen ? { s: frozen } : {}) } : null
    // Back one page: by offset (search_after only moves forward).
    const previous = cursor.o > 0 ? (cursor.o - PAGE_SIZE <= 0 ? withParam(url, { cursor: null }) : withParam(url, { cursor: encodeCursor({ o: cursor.o - PAGE_SIZE }) })) : null
    return {
      count,
      ...(documentCount !== undefined ? { document_count: documentCount } : {}),
      next: nextCursor ? withParam(url, { cursor: encodeCursor(nextCursor) }) : null,
      previous,
      results: await presented(engine, r, page),
    }
  })

  app.get('/api/rest/v3/search/', { config: { auth: 'public', describe: { ...describe, name: 'Search List' } } }, async (req) => {
    const { url, params } = paramsOf(req)
    const r = readRequest(params, app.clock.now())
    const pageParam = params.get('page') ?? '1'
    const page = /^\d{1,6}$/.test(pageParam) ? Number(pageParam) : NaN
    if (!(page >= 1) || page > MAX_V3_PAGE) throw new LdsError('LDS_ERR_NOT_FOUND', { detail: 'Invalid page.' })
    const [hits, count] = await Promise.all([engine.page(r, { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE }), engine.count(r)])
    if (page > 1 && !hits.length) throw new LdsError('LDS_ERR_NOT_FOUND', { detail: 'Invalid page.' })
    const rows = (await presented(engine, r, hits)).flatMap((x) => v3SearchRows(x, r.type))
    const lastPage = Math.min(Math.ceil(count / PAGE_SIZE), MAX_V3_PAGE)
    return {
      count,
      next: page < lastPage ? withParam(url, { page: String(page + 1) }) : null,
      previous: page > 1 ? withParam(url, { page: page === 2 ? null : String(page - 1) }) : null,
      results: rows,
    }
  })

  app.options('/api/rest/v4/search/', async () => OPTIONS_BODY('Search V4 List'))
  app.options('/api/rest/v3/search/', async () => OPTIONS_BODY('Search List'))
}
