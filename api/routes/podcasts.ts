/**
 * Oral arguments as podcasts: `/podcasts/<court_id>/` for one court and `/podcasts/all/` for
 * every court, each the newest 100 processed, unblocked arguments (by day argued), the MP3 as
 * enclosure with its byte length, and the court's seal (the publisher's logo for all courts) as
 * channel art. RSS 2.0 with iTunes tags (domain/audio/podcast.ts).
 */
import { existsSync } from 'node:fs'
import { stat } from 'node:fs/promises'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import { sql, ident, raw, empty, type Sql } from '../../core/sql.js'
import type { Db } from '../../core/clickhouse.js'
import { podcastXml, type PodcastEpisode } from '../../domain/audio/podcast.js'
import { ART_DIR, ART_EXTENSIONS, LOGO_NAME, isArtName, isServableMp3Path } from '../../domain/audio/paths.js'
import { STORAGE_PREFIX } from './audio-files.js'

export const EPISODES_PER_FEED = 100
const ALL_COURTS = 'all'

interface EpisodeRow { id: number; case_name: string; local_path_mp3: string; duration: number | null; date_created: string; date_argued: string | null; docket_number: string | null; court_name: string | null }

export function registerPodcasts(app: FastifyInstance, deps: { db: Db; storageDir: string; publicBaseUrl: string }): void {
  const db = ident(deps.db.database)
  const base = deps.publicBaseUrl

  function artUrl(name: string): string | undefined {
    const ext = ART_EXTENSIONS.find((e) => existsSync(path.join(deps.storageDir, ART_DIR, `${name}.${e}`)))
    return ext ? `${base}${STORAGE_PREFIX}${ART_DIR}/${name}.${ext}` : undefined
  }

  async function episodes(courtFilter: Sql): Promise<PodcastEpisode[]> {
    const rows = await deps.db.query<EpisodeRow>(sql`
      SELECT a.id AS id, a.case_name AS case_name, a.local_path_mp3 AS local_path_mp3, a.duration AS duration, toString(a.date_created) AS date_created,
             toString(d.date_argued) AS date_argued, d.docket_number AS docket_number, c.full_name AS court_name
      FROM (SELECT id, case_name, local_path_mp3, duration, date_created, docket_id FROM ${db}.audio FINAL WHERE processing_complete AND NOT blocked AND _deleted = 0) AS a
      INNER JOIN (SELECT id, court_id, date_argued, docket_number FROM ${db}.dockets FINAL WHERE _deleted = 0 ${courtFilter}) AS d ON d.id = a.docket_id
      LEFT JOIN (SELECT id, full_name FROM ${db}.courts FINAL WHERE _deleted = 0) AS c ON c.id = d.court_id
      ORDER BY ifNull(toString(d.date_argued), toString(toDate(a.date_created))) DESC, a.id DESC
      LIMIT ${raw(String(EPISODES_PER_FEED))}`)
    const out: PodcastEpisode[] = []
    for (const r of rows) {
      if (!isServableMp3Path(r.local_path_mp3)) continue
      // Only files that are there: the enclosure's length is the file's.
      const bytes = await stat(path.join(deps.storageDir, r.local_path_mp3)).then((s) => s.size, () => null)
      if (bytes === null) continue
      const argued = r.date_argued || r.date_created.slice(0, 10)
      const court = r.court_name ?? ''
      out.push({
        guid: `audio-${r.id}`, title: r.case_name || `Oral argument ${r.id}`, link: `${base}/audio/${r.id}/case/`,
        description: `Oral argument in ${r.case_name}${r.docket_number ? ` (docket ${r.docket_number})` : ''}, ${court}, argued ${argued}.`,
        published: new Date(`${argued}T12:00:00Z`), enclosure: { url: `${base}${STORAGE_PREFIX}${r.local_path_mp3}`, bytes },
        durationSeconds: r.duration === null ? null : Number(r.duration),
      })
    }
    return out
  }

  app.get('/podcasts/:court/', async (req, reply) => {
    const court = (req.params as { court: string }).court
    if (!isArtName(court)) return reply.code(404).send({ detail: 'Not found.' })
    let title: string
    let filter: Sql
    let image: string | undefined
    if (court === ALL_COURTS) {
      title = 'Oral arguments of all courts'
      filter = empty
      image = artUrl(LOGO_NAME)
    } else {
      const found = await deps.db.query<{ full_name: string }>(sql`SELECT full_name FROM ${db}.courts FINAL WHERE id = ${court} AND _deleted = 0 LIMIT 1`)
      if (!found.length) return reply.code(404).send({ detail: 'Not found.' })
      title = `${found[0].full_name}: oral arguments`
      filter = sql`AND court_id = ${court}`
      image = artUrl(court)
    }
    const xml = podcastXml({
      title, selfUrl: `${base}/podcasts/${court}/`, link: `${base}/`, author: 'Legal Data Service', imageUrl: image,
      description: `Recordings of ${court === ALL_COURTS ? 'oral arguments in U.S. courts' : title}, newest first.`,
      episodes: await episodes(filter),
    })
    return reply.type('application/rss+xml; charset=utf-8').header('cache-control', 'public, max-age=300').send(xml)
  })
}
