/**
 * PostgreSQL 15 as a peer of bench/search.ts (bench/lib/postgres.ts, a cluster of its own, stopped
 * at the end): one table with a stored tsvector ('simple' configuration: no stemming, no stop
 * words, as our analyzer), weight A for the case name, B for the other short fields, D for the
 * text; a GIN index; b-trees on (court_id, date_filed) and date_filed; ts_rank, plainto_tsquery,
 * phraseto_tsquery, `smith:A` for caseName. Loaded by COPY from the peers' CSV file (the load
 * rate counts COPY + index builds); each query asks the top page and count(*) on two connections.
 */
import { createReadStream, readdirSync, readFileSync } from 'node:fs'
import { performance } from 'node:perf_hooks'
import pg from 'pg'
import { startPostgres, type LocalPostgres } from './postgres.js'
import { PEER_COLUMNS } from './search-peer-file.js'
import { PAGE_SIZE, type SearchEngine } from './search-queries.js'

export interface PeerLoad {
  docs: number; seconds: number; docsPerSecond: number; size: string
  /** CPU of the engine while loading, per document; undefined with `cpuUnmeasured` saying why */
  cpuMicrosPerDoc?: number; cpuSeconds?: number; cpuUnmeasured?: string
}

export interface PgSearchPeer {
  load(csvFile: string, docs: number): Promise<PeerLoad>
  engine(): SearchEngine
  stop(): Promise<void>
}

/**
 * CPU ms of the postmaster and its backends, including backends that have exited (the postmaster
 * reaps them, so their time is in its cutime/cstime), from /proc; undefined when unreadable.
 */
function postgresCpuMs(postmaster: number): number | undefined {
  const ticks = (pid: number) => {
    // after the command name: utime, stime, cutime, cstime are the 12th to 15th fields
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
    return Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])
  }
  try {
    let sum = ticks(postmaster)
    for (const tid of readdirSync(`/proc/${postmaster}/task`)) {
      const kids = readFileSync(`/proc/${postmaster}/task/${tid}/children`, 'utf8').trim()
      for (const k of kids ? kids.split(' ') : []) { try { sum += ticks(Number(k)) } catch { /* exited meanwhile: reaped into cutime */ } }
    }
    return sum * 10 // 100 ticks a second
  } catch { return undefined }
}

export async function startPgSearchPeer(o: { dir: string; timeoutMs: number; log: (m: string) => void; loadAvg: () => string }): Promise<PgSearchPeer> {
  const pgi: LocalPostgres = await startPostgres({ dir: o.dir, log: o.log, settings: { shared_buffers: '2GB', work_mem: '64MB', effective_cache_size: '8GB', max_parallel_workers_per_gather: '2' } })
  let pool: pg.Pool | undefined
  return {
    async load(csvFile, docs) {
      const cpu0 = postgresCpuMs(pgi.child.pid)
      const t0 = performance.now()
      await pgi.psql(`DROP TABLE IF EXISTS opinions;
        CREATE TABLE opinions (id bigint PRIMARY KEY, case_name text, case_name_full text, docket_number text, citation text, judge text,
          court text, court_citation_string text, court_id text, status text, date_filed date, cite_count int, text text,
          tsv tsvector GENERATED ALWAYS AS (
            setweight(to_tsvector('simple'::regconfig, coalesce(case_name, '')), 'A') ||
            setweight(to_tsvector('simple'::regconfig, coalesce(case_name_full, '') || ' ' || coalesce(docket_number, '') || ' ' || coalesce(citation, '') || ' ' ||
              coalesce(judge, '') || ' ' || coalesce(court, '') || ' ' || coalesce(court_citation_string, '')), 'B') ||
            setweight(to_tsvector('simple'::regconfig, coalesce(text, '')), 'D')) STORED)`)
      let last = performance.now()
      let bytes = 0
      const file = createReadStream(csvFile)
      file.on('data', (chunk) => {
        bytes += chunk.length
        if (performance.now() - last > 10_000) { last = performance.now(); o.log(`  PostgreSQL COPY: ${(bytes / 1e6).toFixed(0)} MB read (load average ${o.loadAvg()})`) }
      })
      await pgi.psql(`COPY opinions (${PEER_COLUMNS.join(', ')}) FROM STDIN (FORMAT csv)`, file)
      o.log(`  PostgreSQL: COPY done in ${((performance.now() - t0) / 1000).toFixed(0)} s; building the GIN and b-tree indexes`)
      await pgi.psql(`SET maintenance_work_mem = '1GB'; CREATE INDEX opinions_tsv ON opinions USING gin (tsv);
        CREATE INDEX opinions_court_date ON opinions (court_id, date_filed); CREATE INDEX opinions_date ON opinions (date_filed)`)
      await pgi.psql('VACUUM ANALYZE opinions')
      const seconds = (performance.now() - t0) / 1000
      const cpu1 = postgresCpuMs(pgi.child.pid)
      const size = (await pgi.psql(`SELECT pg_size_pretty(pg_total_relation_size('opinions'))`)).trim()
      const cpuSeconds = cpu0 !== undefined && cpu1 !== undefined ? (cpu1 - cpu0) / 1000 : undefined
      return {
        docs, seconds, docsPerSecond: docs / seconds, size,
        ...(cpuSeconds !== undefined ? { cpuSeconds, cpuMicrosPerDoc: (cpuSeconds * 1e6) / docs } : { cpuUnmeasured: `/proc/${pgi.child.pid}/stat of the postmaster could not be read` }),
      }
    },
    engine() {
      // a query that runs past the timeout is counted at the timeout (logged)
      pool ??= new pg.Pool({ ...pgi.connection, max: 4, statement_timeout: o.timeoutMs })
      const p = pool
      return {
        name: 'PostgreSQL',
        async run(q) {
          let tsq: string
          const args: unknown[] = []
          if (q.kind === 'phrase') { tsq = `phraseto_tsquery('simple'::regconfig, $1)`; args.push(q.q.replace(/"/g, '')) }
          else if (q.kind === 'field') { tsq = `to_tsquery('simple'::regconfig, $1)`; args.push(`${q.q.split(':')[1]}:A`) }
          else { tsq = `plainto_tsquery('simple'::regconfig, $1)`; args.push(q.q) }
          let where = `tsv @@ ${tsq}`
          if (q.filters) { where += ` AND court_id = $2 AND date_filed BETWEEN $3 AND $4`; args.push(q.filters.court, q.filters.from, q.filters.to) }
          const order = q.byDate ? 'date_filed DESC NULLS LAST, id DESC' : `ts_rank(tsv, ${tsq}) DESC, id DESC`
          try {
            const [page, count] = await Promise.all([
              p.query(`SELECT id FROM opinions WHERE ${where} ORDER BY ${order} LIMIT ${PAGE_SIZE}`, args),
              p.query(`SELECT count(*)::int AS n FROM opinions WHERE ${where}`, args),
            ])
            return { hits: count.rows[0].n, top: page.rows.map((r: { id: string }) => Number(r.id)) }
          } catch (err) {
            if (!/statement timeout/.test(String((err as Error).message))) throw err
            o.log(`  PostgreSQL: ${q.kind} ${q.q} ran past ${o.timeoutMs} ms (counted as ${o.timeoutMs} ms)`)
            return { hits: 0, top: [] }
          }
        },
      }
    },
    async stop() {
      await pool?.end().catch(() => {})
      await pgi.psql('DROP TABLE IF EXISTS opinions').catch(() => {})
      await pgi.stop()
      o.log('PostgreSQL stopped')
    },
  }
}
