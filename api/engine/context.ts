import type { Db } from '../../core/clickhouse.js'
import type { Catalogue } from '../../schemas/catalogue/index.js'

/** What the engines need for one request: where rows live and how to write absolute URLs. */
export interface RequestContext {
  db: Db
  catalogue: Catalogue
  /** e.g. http://127.0.0.1:8000 */
  origin: string
  version: 'v3' | 'v4'
}

export const detailUrl = (ctx: Pick<RequestContext, 'origin' | 'version'>, resource: string, id: unknown) =>
  `${ctx.origin}/api/rest/${ctx.version}/${resource}/${encodeURIComponent(String(id))}/`
