/**
 * Reading rows: the latest live version of each key (FINAL), and the related rows a
 * serializer needs, fetched once per response for all its rows (no query per row).
 */
import { sql, ident, join, type Sql } from '../../core/sql.js'
import { selectFinalIn } from '../../core/clickhouse.js'
import type { ResourceDef } from '../../schemas/define.js'
import type { RequestContext } from './context.js'

export type Row = Record<string, unknown>

export function tableRef(ctx: RequestContext, r: ResourceDef): Sql {
  return sql`${ident(ctx.db.database)}.${ident(r.table)}`
}

export function selectColumns(ctx: RequestContext, r: ResourceDef): Sql {
  return join(ctx.catalogue.columns(r).map(([c]) => sql`${ident(c)}`), ', ')
}

export async function fetchByKeys(ctx: RequestContext, r: ResourceDef, keys: readonly unknown[]): Promise<Row[]> {
  if (keys.length === 0) return []
  const typed = r.keyKind === 'int' ? keys.map(Number) : keys.map(String)
  return ctx.db.query<Row>(sql`SELECT ${selectColumns(ctx, r)} FROM ${tableRef(ctx, r)} FINAL WHERE ${ident(r.key)} IN ${typed}`)
}

/** Rows of `r` whose column `via` is one of `keys`, ordered by id. */
export async function fetchByColumn(ctx: RequestContext, r: ResourceDef, via: string, keys: readonly unknown[], columns?: string[]): Promise<Row[]> {
  if (keys.length === 0) return []
  const cols = columns ? join(columns.map((c) => sql`${ident(c)}`), ', ') : selectColumns(ctx, r)
  return ctx.db.query<Row>(selectFinalIn(tableRef(ctx, r), cols, via, [...keys], r.key, sql`ORDER BY ${ident(r.key)}`))
}
