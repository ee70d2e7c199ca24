/**
 * POST /api/rest/{v4,v3}/citation-lookup/: find every case citation in a text (or look up one
 * volume/reporter/page) and say, for each, whether it names a cluster we hold. Used to catch
 * fabricated citations: 200 one match, 300 several, 400 unknown reporter, 404 not found, 429
 * past the per-request cap. Authenticated; throttled by citations counted per user.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Db } from '../../core/clickhouse.js'
import type { Catalogue } from '../../schemas/catalogue/index.js'
import { FieldErrors, LdsError } from '../../core/errors.js'
import { resolveCitations, clustersFor, type CiteKey } from '../../domain/citations/resolve.js'
import { citationRowsLoader } from '../../schemas/internal/citation-network.js'
import { extractCitations, normalizeReporter } from '../../domain/citations/index.js'
import type { Serializer } from '../engine/serialize.js'
import { fetchByKeys } from '../engine/fetch.js'
import { requestOrigin } from '../origin.js'
import { parseRate, type Rate } from '../plugins/citation-throttle.js'
import type { createCitationThrottle } from '../plugins/citation-throttle.js'

export interface CitationLookupLimits { maxTextLength: number; maxCitationsPerRequest: number }
export const DEFAULT_LIMITS: CitationLookupLimits = { maxTextLength: 64_000, maxCitationsPerRequest: 250 }

interface Wanted { citation: string; normalized: string[]; start: number; end: number; volume?: string; page?: string; reporterWritten: string; reporters: string[] }

export interface LookupItem {
  citation: string; normalized_citations: string[]; start_index: number; end_index: number
  status: number; error_message: string; clusters: unknown[]
}

function str(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined
  if (Array.isArray(v)) return str(v[0])
  return String(v)
}

/** The request in either shape, validated with the reference's messages. */
export function parseLookupRequest(body: unknown, limits: CitationLookupLimits): { text: string } | { volume: string; reporter: string; page: string } {
  const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>
  const text = str(b.text)
  const reporter = str(b.reporter)
  if (text === undefined && reporter === undefined) throw new FieldErrors({ non_field_errors: ["Either 'text' or 'reporter' is required."] })
  if (text !== undefined && reporter !== undefined) throw new FieldErrors({ non_field_errors: ["Invalid request. Provide either a 'text' or 'reporter', not both."] })
  if (text !== undefined) {
    if (text.length > limits.maxTextLength) throw new FieldErrors({ text: [`Ensure this field has no more than ${limits.maxTextLength} characters.`] })
    return { text }
  }
  const errors: Record<string, string[]> = {}
  const volume = str(b.volume)
  const page = str(b.page)
  if (!volume) errors.volume = ['This field is required.']
  else if (!/^\d+$/.test(volume.trim())) errors.volume = ['A valid integer is required.']
  if (!page) errors.page = ['This field is required.']
  if (reporter!.length > 100) errors.reporter = ['Ensure this field has no more than 100 characters.']
  if (Object.keys(errors).length) throw new FieldErrors(errors)
  return { volume: volume!.trim(), reporter: reporter!.trim(), page: page!.trim() }
}

function wantedFromText(text: string): Wanted[] {
  return extractCitations(text)
    .filter((c) => (c.kind === 'full_case' || c.kind === 'short_case') && c.volume && c.page)
    .map((c) => ({
      citation: c.matchedText, normalized: c.normalized, start: c.start, end: c.end, volume: c.volume, page: c.page,
      reporterWritten: c.reporterFound ?? c.reporter ?? '', reporters: [...new Set(c.candidates.map((x) => x.reporter))],
    }))
}

function wantedFromParts(p: { volume: string; reporter: string; page: string }): Wanted[] {
  const reporters = [...new Set(normalizeReporter(p.reporter).map((x) => x.canonical))]
  const citation = `${p.volume} ${p.reporter} ${p.page}`
  return [{
    citation, normalized: reporters.map((r) => `${p.volume} ${r} ${p.page}`), start: 0, end: citation.length,
    volume: p.volume, page: p.page, reporterWritten: p.reporter, reporters,
  }]
}

export function registerCitationLookup(app: FastifyInstance, deps: {
  db: Db; catalogue: Catalogue; serializer: Serializer; throttle: ReturnType<typeof createCitationThrottle>
  limits?: Partial<CitationLookupLimits>; defaultRate: Rate
}): void {
  const limits = { ...DEFAULT_LIMITS, ...deps.limits }
  const clusters = deps.catalogue.get('clusters')
  const loadCitations = citationRowsLoader(deps.db, deps.catalogue.get('citations').table)
  for (const version of ['v4', 'v3'] as const) {
    const handler = async (req: FastifyRequest) => {
      const user = req.user!
      const rate = user.citation_rate ? parseRate(user.citation_rate) : deps.defaultRate
      const throttleKey = `user:${user.id}`
      deps.throttle.check(throttleKey, rate)
      const parsed = parseLookupRequest(req.body, limits)
      const wanted = 'text' in parsed ? wantedFromText(parsed.text) : wantedFromParts(parsed)
      const looked = wanted.slice(0, limits.maxCitationsPerRequest)
      const keys: CiteKey[] = looked.filter((w) => w.reporters.length).map((w) => ({ volume: Number(w.volume), reporters: w.reporters, page: w.page! }))
      const resolved = await resolveCitations(loadCitations, keys)
      const idsPer = looked.map((w) => (w.reporters.length ? clustersFor(resolved, { volume: Number(w.volume), reporters: w.reporters, page: w.page! }) : []))
      const allIds = [...new Set(idsPer.flat())]
      const ctx = { db: deps.db, catalogue: deps.catalogue, origin: requestOrigin(req), version }
      const rows = await fetchByKeys(ctx, clusters, allIds)
      const objs = await deps.serializer(rows, ctx)
      const byId = new Map(rows.map((r, i) => [Number(r.id), objs[i]]))
      deps.throttle.record(throttleKey, looked.length, rate)
      return wanted.map((w, i): LookupItem => {
        const base = { citation: w.citation, normalized_citations: w.normalized, start_index: w.start, end_index: w.end }
        if (i >= limits.maxCitationsPerRequest) return { ...base, status: 429, error_message: 'Too many citations requested.', clusters: [] }
        if (!w.reporters.length) return { ...base, status: 400, error_message: `Unable to find reporter with abbreviation of '${w.reporterWritten}'`, clusters: [] }
        const ids = idsPer[i].filter((id) => byId.has(id))
        if (ids.length === 0) return { ...base, status: 404, error_message: `Citation not found: '${w.volume} ${w.reporters[0] ?? w.reporterWritten} ${w.page}'`, clusters: [] }
        const found = ids.sort((a, b) => b - a).map((id) => byId.get(id))
        return { ...base, status: ids.length === 1 ? 200 : 300, error_message: '', clusters: found }
      })
    }
    const path = `/api/rest/${version}/citation-lookup/`
    app.post(path, { config: { auth: 'required' } }, handler)
    // Other methods: authentication is checked before the 405, as in the reference.
    app.route({
      method: ['GET', 'PUT', 'PATCH', 'DELETE'], url: path, config: { auth: 'required' },
      handler: async (req) => { throw new LdsError('LDS_ERR_METHOD_NOT_ALLOWED', { detail: `Method "${req.method}" not allowed.` }) },
    })
  }
}
