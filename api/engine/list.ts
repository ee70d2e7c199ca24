/**
 * List and detail reads of one resource, compiled at boot. Pagination follows the reference:
 * page numbers (at most 100 pages; integer count) everywhere in v3 and in v4 unless the
 * ordering is cursor-capable, where v4 pages by cursor and `count` is a URL.
 */
import { sql, ident, join, type Sql } from '../../core/sql.js'
import { LdsError, FieldErrors } from '../../core/errors.js'
import type { ResourceDef } from '../../schemas/define.js'
import type { Catalogue } from '../../schemas/catalogue/index.js'
import { sourceOf, detailUrl, type RequestContext } from './context.js'
import { compileFilters } from './filters.js'
import { compileOrdering, isCursorOrdering, type Ordering } from './ordering.js'
import { decodeCursor, encodeCursor, type Cursor } from './cursor.js'
import { compileFieldSelection } from './fields.js'
import { tableRef, type Row } from './fetch.js'
import type { Serializer } from './serialize.js'
import { compileListPlanner, type ListPlan } from './list-plan.js'
import { listIndexesOf, narrow } from '../read-model/list-index.js'
import { withOrigin } from '../read-model/rendered-details.js'
import { rememberJson } from './answer-json.js'
import { instantText } from '../../schemas/values.js'

export const MAX_PAGES = 100
export const DEFAULT_PAGE_SIZE = 20
/** The reference sets no cap on page_size; one request should still not read a whole table. */
export const MAX_PAGE_SIZE = 1_000
/** The column a page query carries its total in (not a catalogue name: those have no leading underscores). */
const TOTAL = '__total'

export interface ListRequest { params: Map<string, string[]>; url: URL }

export interface ResourceReader {
  list(req: ListRequest, ctx: RequestContext): Promise<unknown>
  detail(id: string, req: ListRequest, ctx: RequestContext): Promise<Record<string, unknown>>
}

const first = (p: Map<string, string[]>, k: string) => p.get(k)?.[0]

function withParams(url: URL, set: Record<string, string | null>): string {
  const u = new URL(url.toString())
  for (const [k, v] of Object.entries(set)) {
    if (v === null) u.searchParams.delete(k)
    else u.searchParams.set(k, v)
  }
  return u.toString()
}

/**
 * Each row's object from `take`, or else from one `make` call for all the rows it lacked (in their
 * order); `made` sees each object `make` returned.
 */
async function takeOrMake(rows: Row[], take: (row: Row) => Record<string, unknown> | undefined,
  make: (rows: Row[]) => Promise<Record<string, unknown>[]>, made?: (row: Row, obj: Record<string, unknown>) => void): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = new Array(rows.length)
  const missing: Row[] = []
  const at: number[] = []
  for (let i = 0; i < rows.length; i++) {
    const obj = take(rows[i])
    if (obj) out[i] = obj
    else { missing.push(rows[i]); at.push(i) }
  }
  if (missing.length) {
    const objs = await make(missing)
    for (let j = 0; j < objs.length; j++) { out[at[j]] = objs[j]; made?.(missing[j], objs[j]) }
  }
  return out
}

/**
 * `objectDeps`: the resources a serialized object of `r` is built from (dependencies.ts
 * `serializedFrom`); given, objects are kept in the context's object cache between requests.
 * `rendered`: v4 objects of rows the read model keeps rendered are taken from their texts.
 */
export function compileReader(cat: Catalogue, r: ResourceDef, serializer: Serializer, database: string, opts: {
  objectDeps?: readonly string[]
  /** The read model's rendered v4 detail of a row (api/read-model/rendered-details.ts), for resources it renders. */
  rendered?: (resource: string, key: string | number) => string | undefined
} = {}): ResourceReader {
  const filters = compileFilters(cat, r, database)
  const ordering = compileOrdering(r)
  const pageSize = r.pageSize ?? DEFAULT_PAGE_SIZE
  const kindOf = (field: string) => (r.fields[field]?.kind === 'datetime' ? 'datetime' : 'int') as 'int' | 'datetime'
  const planList = compileListPlanner(cat, r, listIndexesOf(cat).get(r.name))

  // Fields the read model does not store (large texts) and an answer may leave out: a request whose
  // fields=/omit= shows none of them reads its rows without them (no ClickHouse query for texts),
  // and keeps none of its objects in the object cache (they lack those fields). Not where the
  // resource shows objects of another resource with large texts (nested or embedded).
  const largeFields = Object.entries(r.fields).filter(([, d]) => d.large).map(([n]) => n)
  const showsOthersLarge = Object.values(r.fields).some((d) => (d.kind === 'nested' || (d.kind === 'fk' && d.embed))
    && Object.values(cat.get(d.from ?? d.target!).fields).some((f) => f.large))
  const names = (s: string | undefined) => (s ?? '').split(',').map((x) => x.trim()).filter(Boolean)
  function forSelection(req: ListRequest, ctx: RequestContext): RequestContext {
    const without = ctx.source?.withoutLarge
    if (!largeFields.length || showsOthersLarge || !without) return ctx
    const fields = first(req.params, 'fields')
    const omit = first(req.params, ctx.version === 'v4' ? 'omit' : 'fields!')
    // As compileFieldSelection reads them: v4 names nest with __ (a kept child keeps its parent; an omitted one does not drop it).
    const kept = fields === undefined ? undefined : new Set(names(fields).map((n) => (ctx.version === 'v4' ? n.split('__')[0] : n)))
    const dropped = new Set(names(omit).filter((n) => ctx.version !== 'v4' || !n.includes('__')))
    const shown = largeFields.some((f) => (!kept || kept.has(f)) && !dropped.has(f))
    return shown ? ctx : { ...ctx, source: without, objects: undefined }
  }

  /** A plan when the read model's list indexes answer this list for this caller now. */
  function planOf(req: ListRequest, ctx: RequestContext, o: Ordering): ListPlan | undefined {
    if (!ctx.lists?.usable(r.name)) return undefined
    return planList(req.params, o)
  }

  /** `limit` rows of a planned list from `offset`, each its key and ordering value, as ClickHouse would return them. */
  function indexRows(ctx: RequestContext, plan: ListPlan, opts: { offset: number; limit: number; reverse?: boolean; range?: ListPlan['range'] }): Row[] {
    const field = plan.index.order
    return ctx.lists!.store.listRange(r.name, plan.index, plan.by, opts.range ?? plan.range, { reverse: plan.desc !== !!opts.reverse, offset: opts.offset, limit: opts.limit })
      .map((e) => ({ [r.key]: e.key, [field]: e.order }))
  }

  /** Rows the caller may see at all: its own (owner), or published ones and its own (published). */
  function accessOf(ctx: RequestContext): Sql | undefined {
    const owner = r.owner ? ident(r.owner) : undefined
    if (r.access === 'owner' && owner) return sql`${owner} = ${ctx.user?.id ?? -1}`
    if (r.access === 'published' && owner && r.publishedFlag) {
      return ctx.user ? sql`(${ident(r.publishedFlag)} OR ${owner} = ${ctx.user.id})` : sql`${ident(r.publishedFlag)}`
    }
    return undefined
  }

  function whereOf(params: Map<string, string[]>, ctx: RequestContext): Sql {
    const f = filters(params)
    if (Object.keys(f.errors).length) throw new FieldErrors(f.errors)
    if (f.unknown.length) throw new LdsError('LDS_ERR_UNKNOWN_PARAMS', { extra: { unknown_params: f.unknown } })
    const access = accessOf(ctx)
    const all = access ? [access, ...f.where] : f.where
    return all.length ? sql`WHERE ${join(all, ' AND ')}` : sql``
  }

  function orderSql(o: Ordering, flip = false): Sql {
    const terms = [...o.terms]
    if (!terms.some((t) => t.field === r.key)) terms.push({ field: r.key, desc: terms[0]?.desc ?? true })
    // PostgreSQL's placement of NULLs, which the reference's pages follow: first when descending.
    return join(terms.map((t) => sql`${ident(t.field)} ${(t.desc !== flip) ? sql`DESC NULLS FIRST` : sql`ASC NULLS LAST`}`), ', ')
  }

  /** The page size of a page-number answer: `page_size` where the resource takes it, else its own. */
  function pageSizeOf(req: ListRequest): number {
    const asked = first(req.params, 'page_size')
    if (!r.pageSizeQuery || !asked || !/^\d+$/.test(asked) || Number(asked) < 1) return pageSize
    return Math.min(Number(asked), MAX_PAGE_SIZE)
  }

  /** A page's rows are chosen by ClickHouse reading only the key and the ordering columns… */
  function pageColumns(o: Ordering): Sql {
    return join([...new Set([r.key, ...o.terms.map((t) => t.field)])].map((c) => sql`${ident(c)}`), ', ')
  }

  /** …and read whole from the row source (the read model), in the page's order. */
  async function rowsOf(picked: Row[], ctx: RequestContext): Promise<Row[]> {
    const rows = await sourceOf(ctx).byKeys(r, picked.map((p) => p[r.key]), { listed: true })
    const byKey = new Map(rows.map((row) => [String(row[r.key]), row]))
    return picked.map((p) => byKey.get(String(p[r.key]))).filter((x): x is Row => x !== undefined)
  }

  /** The rendered text a page row stands for (rows made by pageRowsOf from a key alone). */
  const textOfKeyRow = new WeakMap<Row, string>()

  /**
   * A page's rows for serializing. Where the page's objects come from rendered texts (v4 of a
   * rendered resource), a row with a current text needs only its key: its text is read now and
   * carried with it, and the row itself is neither read nor decoded. The others are read whole.
   */
  async function pageRowsOf(picked: Row[], ctx: RequestContext): Promise<Row[]> {
    const rendered = ctx.version === 'v4' ? opts.rendered : undefined
    if (!rendered) return rowsOf(picked, ctx)
    const out: (Row | undefined)[] = new Array(picked.length)
    const lacking: Row[] = []
    const at: number[] = []
    for (let i = 0; i < picked.length; i++) {
      const key = picked[i][r.key]
      const text = rendered(r.name, key as string | number)
      if (text === undefined) { lacking.push(picked[i]); at.push(i); continue }
      const row: Row = { [r.key]: key }
      textOfKeyRow.set(row, text)
      out[i] = row
    }
    if (lacking.length) {
      const byKey = new Map((await rowsOf(lacking, ctx)).map((row) => [String(row[r.key]), row]))
      for (let j = 0; j < lacking.length; j++) out[at[j]] = byKey.get(String(lacking[j][r.key]))
    }
    return out.filter((x): x is Row => x !== undefined)
  }

  // An object that depends on who asks is never shared between requests.
  const objectDeps = r.access === 'owner' || r.access === 'published' ? undefined : opts.objectDeps

  /**
   * The rows' objects: kept ones from the object cache; then, for v4 rows the read model keeps
   * rendered, parsed from their texts (the answer's JSON reuses the text); the others built. What
   * was parsed or built is kept for the next request.
   */
  async function serialize(rows: Row[], ctx: RequestContext): Promise<Record<string, unknown>[]> {
    const rendered = ctx.version === 'v4' ? opts.rendered : undefined
    const make = (missing: Row[]) => (rendered ? fromTexts(missing, ctx, rendered) : serializer(missing, ctx))
    if (!ctx.objects || !objectDeps) return make(rows)
    const lease = ctx.objects.lease(r.name, objectDeps, ctx.version, ctx.origin)
    const out = await takeOrMake(rows, (row) => lease.get(row[r.key]), make, (row, obj) => lease.put(row[r.key], obj))
    lease.end()
    return out
  }

  /** Objects parsed from the rows' rendered texts; rows without one are built. */
  function fromTexts(rows: Row[], ctx: RequestContext, rendered: NonNullable<typeof opts.rendered>): Promise<Record<string, unknown>[]> {
    return takeOrMake(rows, (row) => {
      const text = textOfKeyRow.get(row) ?? rendered(r.name, row[r.key] as string | number)
      if (text === undefined) return undefined
      const json = withOrigin(text, ctx.origin)
      return rememberJson(JSON.parse(json) as Record<string, unknown>, json)
    }, (missing) => serializer(missing, ctx))
  }

  async function render(rows: Row[], req: ListRequest, ctx: RequestContext) {
    const objs = await serialize(rows, ctx)
    const select = compileFieldSelection({
      fields: first(req.params, 'fields'),
      omit: ctx.version === 'v4' ? first(req.params, 'omit') : first(req.params, 'fields!'),
      version: ctx.version,
    })
    return select ? objs.map(select) : objs
  }

  /** How many rows match: from the list index when the list is planned, else one ClickHouse count. */
  async function count(where: Sql, ctx: RequestContext, plan?: ListPlan): Promise<number> {
    if (plan) return ctx.lists!.store.listCount(r.name, plan.index, plan.by, plan.range)
    const [row] = await ctx.db.query<{ n: number }>(sql`SELECT count() AS n FROM ${tableRef(ctx, r)} FINAL ${where}`)
    return Number(row?.n ?? 0)
  }

  async function pageMode(req: ListRequest, ctx: RequestContext, where: Sql, o: Ordering, plan?: ListPlan) {
    const size = pageSizeOf(req)
    const raw = first(req.params, 'page')
    let page = 1
    const last = raw === 'last'
    if (raw !== undefined && raw !== '' && !last) {
      if (/^\d+$/.test(raw)) page = Number(raw)
      else throw new LdsError('LDS_ERR_INVALID_PAGE', { detail: 'Invalid page: That page number is not an integer' })
    }
    const deep = () => new LdsError('LDS_ERR_INVALID_PAGE', { detail: 'Invalid page: Deep API pagination is not allowed. Please review API documentation.' })
    const invalid = () => new LdsError('LDS_ERR_INVALID_PAGE', { detail: 'Invalid page.' })
    if (!last && page > MAX_PAGES) throw deep()
    if (!last && page < 1) throw invalid()
    const pageQuery = async (n: number, withTotal: boolean): Promise<Row[]> => {
      if (plan) {
        const rows = indexRows(ctx, plan, { offset: (n - 1) * size, limit: size })
        if (withTotal && rows.length) rows[0][TOTAL] = await count(where, ctx, plan)
        return rows
      }
      return ctx.db.query<Row>(sql`SELECT ${pageColumns(o)}${withTotal ? sql`, count() OVER () AS ${ident(TOTAL)}` : sql``}
        FROM ${tableRef(ctx, r)} FINAL ${where} ORDER BY ${orderSql(o)} LIMIT ${size} OFFSET ${(n - 1) * size}`)
    }
    let total: number
    let picked: Row[]
    if (last) {
      total = await count(where, ctx, plan)
      page = Math.max(1, Math.ceil(total / size))
      if (page > MAX_PAGES) throw deep()
      picked = await pageQuery(page, false)
    } else {
      // One query for the page and the count (a window over the matching rows, read once); only a
      // page past the end, which returns no row to carry the count, needs a second.
      picked = await pageQuery(page, true)
      total = picked.length ? Number(picked[0][TOTAL]) : await count(where, ctx, plan)
      if (page > Math.max(1, Math.ceil(total / size))) throw invalid()
    }
    const lastPage = Math.max(1, Math.ceil(total / size))
    const rows = await pageRowsOf(picked, ctx)
    const hasNext = page < lastPage && page < MAX_PAGES
    return {
      count: total,
      next: hasNext ? withParams(req.url, { page: String(page + 1), cursor: null }) : null,
      previous: page > 1 ? withParams(req.url, { page: page === 2 ? null : String(page - 1), cursor: null }) : null,
      results: await render(rows, req, ctx),
    }
  }

  async function cursorMode(req: ListRequest, ctx: RequestContext, where: Sql, o: Ordering, plan?: ListPlan) {
    const term = o.terms[0]
    const kind = kindOf(term.field)
    const raw = first(req.params, 'cursor')
    const cursor: Cursor = raw ? decodeCursor(raw, kind) : { offset: 0, reverse: false, position: null }
    const col = ident(term.field)
    const conds: Sql[] = []
    if (cursor.position !== null) {
      const pos = kind === 'int' ? sql`${Number(cursor.position)}` : sql`parseDateTime64BestEffort(${cursor.position}, 6, 'UTC')`
      // Forward on a descending order goes down; backwards goes up. Ties are skipped by offset.
      const down = term.desc !== cursor.reverse
      conds.push(down ? sql`${col} <= ${pos}` : sql`${col} >= ${pos}`)
    }
    const baseWhere = where
    const fullWhere = conds.length ? (isEmpty(baseWhere) ? sql`WHERE ${join(conds, ' AND ')}` : sql`${baseWhere} AND ${join(conds, ' AND ')}`) : baseWhere
    let rows: Row[]
    // The cursor's position as the index holds it (datetimes as instantText; one it cannot read exactly is left to ClickHouse).
    const indexed = plan && (cursor.position === null ? null : kind === 'int' ? Number(cursor.position) : instantText(cursor.position))
    if (plan && indexed !== undefined) {
      // The same page from the list index: the cursor's position bounds the range the same way.
      const p = indexed ?? undefined
      const down = term.desc !== cursor.reverse
      const range = p === undefined ? plan.range : narrow(plan.range ?? {}, down ? { hi: p } : { lo: p })
      rows = indexRows(ctx, plan, { offset: cursor.offset, limit: pageSize + 1, reverse: cursor.reverse, range })
    } else {
      rows = await ctx.db.query<Row>(sql`SELECT ${pageColumns(o)} FROM ${tableRef(ctx, r)} FINAL ${fullWhere}
        ORDER BY ${orderSql(o, cursor.reverse)} LIMIT ${pageSize + 1} OFFSET ${cursor.offset}`)
    }
    const more = rows.length > pageSize
    rows = rows.slice(0, pageSize)
    if (cursor.reverse) rows.reverse()
    // Boundaries come from the ordering values ClickHouse returned; the objects from the source.
    const full = await pageRowsOf(rows, ctx)
    const hasNext = cursor.reverse ? true : more
    const hasPrevious = cursor.reverse ? more : cursor.position !== null
    const posOf = (row: Row) => String(row[term.field])
    const boundary = (edge: Row, fromEnd: boolean, base: Cursor | null): Cursor => {
      const p = posOf(edge)
      const list = fromEnd ? [...rows].reverse() : rows
      let n = 0
      for (const row of list) { if (posOf(row) === p) n++; else break }
      // A page made entirely of one value continues the offset of the cursor that led here.
      if (n === rows.length && base && base.position === p) n += base.offset
      return { offset: n, reverse: !fromEnd, position: p }
    }
    const next = hasNext && rows.length
      ? withParams(req.url, { cursor: encodeCursor({ ...boundary(rows[rows.length - 1], true, cursor.reverse ? null : cursor), reverse: false }), page: null })
      : null
    const previous = hasPrevious && rows.length
      ? withParams(req.url, { cursor: encodeCursor({ ...boundary(rows[0], false, cursor.reverse ? cursor : null), reverse: true }), page: null })
      : null
    return {
      count: withParams(req.url, { count: 'on', cursor: null, page: null }),
      next, previous,
      results: await render(full, req, ctx),
    }
  }

  /** The access rule for one row already read (another user's row is as good as missing). */
  function visible(row: Row, ctx: RequestContext): boolean {
    if (!r.owner || (r.access !== 'owner' && r.access !== 'published')) return true
    const mine = ctx.user != null && Number(row[r.owner]) === ctx.user.id
    return mine || (r.access === 'published' && !!r.publishedFlag && row[r.publishedFlag] === true)
  }

  /** A removed id that went somewhere: 301 to where it went, or 410 when it is gone for good. */
  async function redirect(id: number, req: ListRequest, ctx: RequestContext): Promise<void> {
    const rd = r.redirections!
    const [hit] = await sourceOf(ctx).byColumn(ctx.catalogue.get(rd.resource), rd.via, [id])
    if (!hit) return
    if (rd.gone.includes(Number(hit[rd.reason]))) throw new LdsError('LDS_ERR_GONE', { detail: rd.goneDetail })
    const to = hit[rd.to]
    if (to === null || to === undefined) return
    const location = new URL(detailUrl(ctx, r.name, to))
    location.search = req.url.search
    throw new LdsError('LDS_ERR_MOVED', { headers: { Location: location.toString() }, body: '' })
  }

  return {
    async list(req, requestCtx) {
      const ctx = forSelection(req, requestCtx)
      const where = whereOf(req.params, ctx)
      const o = ordering(first(req.params, 'order_by'))
      const plan = planOf(req, ctx, o)
      if (ctx.version === 'v4' && first(req.params, 'count') === 'on') return { count: await count(where, ctx, plan) }
      // An order_by the resource does not offer is ignored for the default ordering, and then (as in
      // the reference) the answer pages by number even where the default would page by cursor.
      const refused = !o.explicit && !!first(req.params, 'order_by')
      if (ctx.version === 'v4' && !refused && isCursorOrdering(r, o)) return cursorMode(req, ctx, where, o, plan)
      return pageMode(req, ctx, where, o, plan)
    },
    async detail(id, req, requestCtx) {
      const ctx = forSelection(req, requestCtx)
      if (r.keyKind === 'int' && !/^\d+$/.test(id)) throw new LdsError('LDS_ERR_NOT_FOUND')
      const [row] = await sourceOf(ctx).byKeys(r, [r.keyKind === 'int' ? Number(id) : id])
      if (!row && r.redirections && /^\d+$/.test(id)) await redirect(Number(id), req, ctx)
      if (!row || !visible(row, ctx)) throw new LdsError('LDS_ERR_NOT_FOUND', { detail: `No ${r.model} matches the given query.` })
      const [obj] = await render([row], req, ctx)
      return obj
    },
  }
}

function isEmpty(s: Sql): boolean { return s.strings.join('').trim() === '' && s.values.length === 0 }
