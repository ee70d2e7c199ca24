/**
 * Copies the dockets of a ClickHouse database into PostgreSQL for the peer: one streaming
 * `SELECT … FINAL FORMAT CSV` piped into psql's `COPY dockets FROM STDIN`, nothing held in memory.
 * Columns keep their names and get the PostgreSQL type of their kind (Int64 → bigint, the
 * catalogue's dates → date, DateTime64 → timestamptz, arrays → bigint[]); each row also carries
 * the ids of its clusters and audio files (what the API's detail lists), so a peer request is one
 * query. Indexes: the primary key on id, (court_id, date_filed) and (date_filed). A signature in
 * `bench_meta` says which load the copy was made from, so an unchanged load is not copied again.
 */
import { Transform } from 'node:stream'
import { sql, ident, raw, join, compile, type Sql } from '../../core/sql.js'
import type { Runtime } from '../../bin/runtime.js'
import type { LocalPostgres } from './postgres.js'

const pgIdent = (name: string) => {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unexpected column name ${name}`)
  return name
}

function pgType(chType: string, isDate: boolean): { type: string; notNull: boolean } {
  const nullable = /^Nullable\((.*)\)$/.exec(chType)
  const base = nullable ? nullable[1] : chType
  let type = 'text'
  if (isDate) type = 'date'
  else if (/^U?Int(8|16|32|64)$/.test(base)) type = 'bigint'
  else if (/^Float/.test(base)) type = 'double precision'
  else if (base === 'Bool') type = 'boolean'
  else if (/^DateTime/.test(base)) type = 'timestamptz'
  else if (/^Array\(U?Int/.test(base)) type = 'bigint[]'
  else if (/^Array\(/.test(base)) type = 'text[]'
  return { type, notNull: !nullable }
}

export interface CopyResult { rows: number; seconds: number; reused: boolean }

export async function copyDocketsToPostgres(rt: Runtime, pg: LocalPostgres, opts: { signature: string; log: (m: string) => void }): Promise<CopyResult> {
  const have = await pg.psql(`SELECT signature FROM bench_meta`).catch(() => '')
  if (have.trim() === opts.signature) {
    const n = Number((await pg.psql('SELECT count(*) FROM dockets')).trim())
    return { rows: n, seconds: 0, reused: true }
  }
  const started = Date.now()
  const dbName = rt.cfg.clickhouseDatabase
  const resource = rt.catalogue.get('dockets')
  const dateColumns = new Set(rt.catalogue.columns(resource).filter(([, field]) => resource.fields[field].kind === 'date').map(([c]) => c))
  const cols = (await rt.db.query<{ name: string; type: string }>(sql`
    SELECT name, type FROM system.columns WHERE database = ${dbName} AND table = 'dockets' AND name NOT IN ('_version', '_deleted') ORDER BY position`))
  const ddl = cols.map((c) => { const t = pgType(c.type, dateColumns.has(c.name)); return `${pgIdent(c.name)} ${t.type}${t.notNull ? ' NOT NULL' : ''}` })
  await pg.psql(`DROP TABLE IF EXISTS dockets; DROP TABLE IF EXISTS bench_meta;
    CREATE TABLE dockets (${ddl.join(', ')}, cluster_ids bigint[] NOT NULL, audio_ids bigint[] NOT NULL)`)

  const pgArray = (e: Sql) => sql`concat('{', arrayStringConcat(${e}, ','), '}')`
  const select = cols.map((c) => {
    const col = sql`d.${ident(c.name)}`
    if (/^Array\(/.test(c.type)) return sql`${pgArray(col)} AS ${ident(c.name)}`
    if (dateColumns.has(c.name)) return sql`nullIf(${col}, '') AS ${ident(c.name)}`
    return col
  })
  const childIds = (table: string) => sql`(SELECT docket_id, arraySort(groupArray(id)) AS ids FROM ${ident(dbName)}.${ident(table)} FINAL WHERE docket_id IS NOT NULL GROUP BY docket_id)`
  const q = compile(sql`SELECT ${join(select, ', ')}, ${pgArray(sql`c.ids`)}, ${pgArray(sql`a.ids`)}
    FROM ${ident(dbName)}.${ident('dockets')} AS d FINAL
    LEFT JOIN ${childIds('clusters')} AS c ON c.docket_id = d.id
    LEFT JOIN ${childIds('audio')} AS a ON a.docket_id = d.id
    ORDER BY d.id ${raw('FORMAT CSV')}`)
  const { stream } = await rt.db.client.exec({ query: q.query, query_params: q.query_params, clickhouse_settings: { format_csv_null_representation: '\\N', join_use_nulls: 0 } })
  let lines = 0
  let lastReport = Date.now()
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++
      if (Date.now() - lastReport > 5_000) { lastReport = Date.now(); opts.log(`  copied ~${lines.toLocaleString('en-US')} rows`) }
      done(null, chunk)
    },
  })
  stream.on('error', (err) => counter.destroy(err))
  await pg.psql(`COPY dockets FROM STDIN (FORMAT csv, NULL '\\N')`, stream.pipe(counter))
  opts.log(`  ${lines.toLocaleString('en-US')} rows copied; indexing`)
  await pg.psql(`ALTER TABLE dockets ADD PRIMARY KEY (id);
    CREATE INDEX dockets_court_date ON dockets (court_id, date_filed);
    CREATE INDEX dockets_date ON dockets (date_filed)`)
  await pg.psql('VACUUM ANALYZE dockets')
  await pg.psql(`CREATE TABLE bench_meta (signature text); INSERT INTO bench_meta VALUES ('${opts.signature.replace(/'/g, "''")}')`)
  const rows = Number((await pg.psql('SELECT count(*) FROM dockets')).trim())
  return { rows, seconds: (Date.now() - started) / 1000, reused: false }
}
