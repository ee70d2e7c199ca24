/**
 * What the tags and the path of an argument need beyond its record: the docket's day argued and
 * number, and the court's name, read from the tables the table sink keeps.
 */
import { sql, ident } from '../../core/sql.js'
import type { Db } from '../../core/clickhouse.js'
import type { ArgumentFacts } from '../../domain/audio/tags.js'

export interface DocketFacts { docketId: number; courtId: string; courtName: string; dateArgued: string | null; docketNumber: string }

export async function docketFacts(db: Db, docketIds: readonly number[]): Promise<Map<number, DocketFacts>> {
  const out = new Map<number, DocketFacts>()
  if (!docketIds.length) return out
  const rows = await db.withKeys<{ id: number; court_id: string; date_argued: string | null; docket_number: string | null; full_name: string | null }>([...new Set(docketIds)], 'Int64', (k) => sql`
    SELECT d.id AS id, d.court_id AS court_id, toString(d.date_argued) AS date_argued, d.docket_number AS docket_number, c.full_name AS full_name
    FROM (SELECT id, court_id, date_argued, docket_number FROM ${ident(db.database)}.dockets FINAL WHERE id IN ${k} AND _deleted = 0) AS d
    LEFT JOIN (SELECT id, full_name FROM ${ident(db.database)}.courts FINAL WHERE _deleted = 0) AS c ON c.id = d.court_id`)
  for (const r of rows) {
    out.set(Number(r.id), { docketId: Number(r.id), courtId: String(r.court_id), courtName: r.full_name || String(r.court_id), dateArgued: r.date_argued || null, docketNumber: r.docket_number ?? '' })
  }
  return out
}

/** The facts of one record: the day argued falls back to the day the record was created. */
export function argumentFacts(record: Record<string, unknown>, docket: DocketFacts, baseUrl: string): ArgumentFacts {
  const created = String(record.date_created ?? '').slice(0, 10)
  return {
    id: Number(record.id), caseName: String(record.case_name || record.case_name_short || record.case_name_full || ''),
    courtName: docket.courtName, courtId: docket.courtId, dateArgued: docket.dateArgued ?? (/^\d{4}-\d{2}-\d{2}$/.test(created) ? created : '1970-01-01'),
    docketNumber: docket.docketNumber, recordUrl: `${baseUrl}/audio/${record.id}/case/`,
  }
}
