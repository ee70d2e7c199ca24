import type { Db } from '../../core/clickhouse.js'
import type { Catalogue } from '../../schemas/catalogue/index.js'
import type { ApiUser } from '../read-model/users.js'
import type { ReadStore } from '../read-model/store.js'
import type { ObjectCache } from './object-cache.js'
import { clickhouseSource, type RowSource } from './source.js'

/** The read model's list indexes, for lists they answer (list-plan.ts). */
export interface ListIndexAccess {
  store: Pick<ReadStore, 'listRange' | 'listCount'>
  /** True while the read model holds at least what ClickHouse holds of this resource (its lists may then come from the indexes). */
  usable(resource: string): boolean
}

/** What the engines need for one request: where rows live and how to write absolute URLs. */
export interface RequestContext {
  db: Db
  catalogue: Catalogue
  /** e.g. http://127.0.0.1:8000 */
  origin: string
  version: 'v3' | 'v4'
  /** The caller, for resources that show each user only their own rows. */
  user?: ApiUser | null
  /** Where whole rows are read from: the read model; ClickHouse when not given. */
  source?: RowSource
  /** The read model's list indexes; lists are chosen by ClickHouse when not given. */
  lists?: ListIndexAccess
  /** Serialized objects kept between requests; every object is built anew when not given. */
  objects?: ObjectCache
}

const fallbackSources = new WeakMap<Db, RowSource>()
/** The context's row source, or ClickHouse (one per client). */
export function sourceOf(ctx: RequestContext): RowSource {
  if (ctx.source) return ctx.source
  let s = fallbackSources.get(ctx.db)
  if (!s) { s = clickhouseSource(ctx.db, ctx.catalogue); fallbackSources.set(ctx.db, s) }
  return s
}

const paths = new WeakMap<Catalogue, Map<string, string>>()
/** The URL path of a resource under the version prefix (`visualizations/json`), else its name. */
function pathOf(cat: Catalogue | undefined, resource: string): string {
  if (!cat) return resource
  let m = paths.get(cat)
  if (!m) { m = new Map(cat.resources.map((r) => [r.name, r.path ?? r.name])); paths.set(cat, m) }
  return m.get(resource) ?? resource
}

export const detailUrl = (ctx: Pick<RequestContext, 'origin' | 'version'> & { catalogue?: Catalogue }, resource: string, id: unknown) =>
  `${ctx.origin}/api/rest/${ctx.version}/${pathOf(ctx.catalogue, resource)}/${encodeURIComponent(String(id))}/`
