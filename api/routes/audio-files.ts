/**
 * The files the audio role makes, served from the storage root (LDS_STORAGE_DIR) under `/storage/`:
 * `/storage/<local_path_mp3>` (the reference serves the same paths from its storage host) and the
 * seals and logo under `/storage/art/`. Only paths of those two shapes are reachable, and an MP3
 * only while an unblocked record names it and the file is there. Range requests, ETag and Last-Modified, conditional
 * GETs and cache headers come from @fastify/static (`send`).
 */
import type { FastifyInstance } from 'fastify'
import fastifyStatic from '@fastify/static'
import { sql, ident } from '../../core/sql.js'
import type { Db } from '../../core/clickhouse.js'
import { ART_DIR, ART_EXTENSIONS, isArtName, isServableMp3Path } from '../../domain/audio/paths.js'
import { mkdir, stat } from 'node:fs/promises'
import path from 'node:path'

export const STORAGE_PREFIX = '/storage/'

/** How long a file's "named by an unblocked record" answer is reused: a block shows within this. */
const NAMED_TTL_MS = 30_000
const NAMED_MAX = 10_000

export async function registerAudioFiles(app: FastifyInstance, deps: { db: Db; storageDir: string }): Promise<void> {
  // The folder exists before the first MP3 does (@fastify/static warns about a missing root).
  await mkdir(deps.storageDir, { recursive: true })
  await app.register(fastifyStatic, { root: deps.storageDir, serve: false, decorateReply: true })
  const named = new Map<string, { ok: boolean; until: number }>()

  /** Whether an unblocked audio record names this MP3 (recently asked answers reused). */
  async function servable(path: string): Promise<boolean> {
    const hit = named.get(path)
    if (hit && hit.until > Date.now()) return hit.ok
    const rows = await deps.db.query<{ n: number }>(sql`
      SELECT count() AS n FROM ${ident(deps.db.database)}.audio FINAL WHERE local_path_mp3 = ${path} AND NOT blocked AND _deleted = 0`)
    const ok = Number(rows[0]?.n ?? 0) > 0
    if (named.size >= NAMED_MAX) named.clear()
    named.set(path, { ok, until: Date.now() + NAMED_TTL_MS })
    return ok
  }

  const notFound = { detail: 'Not found.' }
  const handler = async (req: { params: unknown }, reply: import('fastify').FastifyReply) => {
    const rest = (req.params as { '*': string })['*'] ?? ''
    if (rest.startsWith(`${ART_DIR}/`)) {
      const [name, ext] = rest.slice(ART_DIR.length + 1).split('.')
      if (!isArtName(name) || !(ART_EXTENSIONS as readonly string[]).includes(ext ?? '')) return reply.code(404).send(notFound)
      return reply.sendFile(rest, { maxAge: '1d', immutable: false })
    }
    if (!isServableMp3Path(rest) || !(await servable(rest))) return reply.code(404).send(notFound)
    // The audio role removes a file its record no longer uses (deleted, moved) before the answer
    // above expires: a file that is gone is a plain 404.
    if (!(await stat(path.join(deps.storageDir, rest)).then((s) => s.isFile(), () => false))) return reply.code(404).send(notFound)
    // A changed original is renamed over the same path: caches revalidate (ETag) after an hour.
    return reply.type('audio/mpeg').sendFile(rest, { maxAge: '1h', acceptRanges: true, etag: true, lastModified: true })
  }
  app.get(`${STORAGE_PREFIX}*`, handler)
}
