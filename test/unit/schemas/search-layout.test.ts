import t from 'tap'
import { compile as compileSql, type Sql } from '../../../core/sql.js'

/** compiled, with the whitespace of multi-line templates folded */
const compile = (q: Sql) => { const c = compileSql(q); return { query: c.query.replace(/\s+/g, ' '), query_params: c.query_params } }
import { searchTables } from '../../../domain/search/tables.js'
import { searchTableDdl, postingsInsertSql, refreshSql } from '../../../schemas/internal/search-layout.js'

t.test('DDL: documents, postings (migrating layout 1, moving layout 3 back), the dictionary of current versions', async (t) => {
  for (const type of ['o', 'r', 'd', 'rd', 'p', 'oa'] as const) {
    const ddl = searchTableDdl(type).map(compile)
    const filtered = type === 'o' || type === 'r' || type === 'd' || type === 'rd'
    t.equal(ddl.length, filtered ? 18 : 16, `${type}: a projection by (court, date) where both are single-valued fields`)
    if (filtered) {
      t.same(ddl.slice(16).map((q) => q.query), [
        `ALTER TABLE \`${searchTables(type).docs}\` MODIFY SETTING deduplicate_merge_projection_mode = 'rebuild'`,
        `ALTER TABLE \`${searchTables(type).docs}\` ADD PROJECTION IF NOT EXISTS \`by_filter\` (SELECT id, version, is_deleted, court_id, date_filed ORDER BY court_id, date_filed) WITH SETTINGS (index_granularity = 128)`,
      ])
    }
    for (const q of ddl) t.same(q.query_params, {}, `${type}: DDL has no parameters`)
    const names = searchTables(type)
    const base = names.docs
    t.equal(names.postings, `${base}_postings_v2`)
    t.equal(names.ingest, names.postings, 'no ingest table: the name of the last part a layout-1 database lacks')
    t.match(ddl[0].query, new RegExp(`^CREATE TABLE IF NOT EXISTS \`${base}\` .*ENGINE = ReplacingMergeTree\\(version, is_deleted\\) ORDER BY id$`, 's'))
    t.same(ddl.slice(2, 5).map((q) => q.query), [`DROP VIEW IF EXISTS \`${base}_postings_mv\``, `DROP VIEW IF EXISTS \`${base}_docs_mv\``, `DROP TABLE IF EXISTS \`${base}_ingest\``])
    t.match(ddl[5].query, new RegExp(`^CREATE TABLE IF NOT EXISTS \`${base}_postings\` .*versions Array\\(UInt64\\)`))
    t.equal(ddl[6].query, `CREATE TABLE IF NOT EXISTS \`${base}_postings_v3\` (\`field\` LowCardinality(String), \`term\` String, \`version\` UInt64, \`ids\` Array(Int64) CODEC(Delta, LZ4), \`tfs\` Array(UInt32), \`dls\` Array(UInt32), \`poss\` Array(Array(UInt32))) ENGINE = MergeTree ORDER BY (field, term)`, 'a layout-3 table (reverted layout), empty if absent')
    t.match(ddl[7].query, /UNION ALL SELECT field, term, version, ids, tfs, dls, poss FROM `[a-z_]+_postings_v3` WHERE NOT endsWith\(toString\(field\), '~2'\) OR hasAny\(splitByChar\(' ', term\), \['a', 'an', /, 'its tokens and common grams copied back')
    t.match(ddl[7].query, new RegExp(`^CREATE TABLE IF NOT EXISTS \`${names.postings}\` \\(\`field\` LowCardinality\\(String\\), \`term\` String, \`version\` UInt64, \`ids\` Array\\(Int64\\) CODEC\\(Delta, LZ4\\), \`tfs\` Array\\(UInt32\\), \`dls\` Array\\(UInt32\\), \`poss\` Array\\(Array\\(UInt32\\)\\)\\) ENGINE = MergeTree ORDER BY \\(field, term\\) SETTINGS index_granularity = 1024, index_granularity_bytes = 10485760 AS SELECT .* FROM \`${base}_postings\``))
    t.equal(ddl[8].query, `DROP TABLE IF EXISTS \`${base}_postings\``)
    t.equal(ddl[9].query, `DROP TABLE IF EXISTS \`${base}_postings_v3\``)
    t.equal(ddl[1].query, `ALTER TABLE \`${base}\` ADD COLUMN IF NOT EXISTS text_version UInt64 DEFAULT version AFTER is_deleted, ADD COLUMN IF NOT EXISTS text_hash UInt64 AFTER text_version`, 'text versions added to an older table')
    t.same(ddl.slice(10, 12).map((q) => q.query), [`DROP DICTIONARY IF EXISTS \`${base}_live\``, `DROP VIEW IF EXISTS \`${base}_live_src\``], 'the dictionary before text versions dropped')
    t.equal(names.live, `${base}_live_v2`)
    t.equal(ddl[12].query, `CREATE VIEW IF NOT EXISTS \`${names.live}_src\` AS SELECT id, text_version + 1 AS live, version AS row_version FROM \`${names.docs}\` FINAL`)
    t.equal(ddl[13].query, `CREATE DICTIONARY IF NOT EXISTS \`${names.live}\` (id Int64, live UInt64, row_version UInt64) PRIMARY KEY id SOURCE(CLICKHOUSE(TABLE '${names.live}_src')) LAYOUT(HASHED()) LIFETIME(MIN 1 MAX 5)`,
      'the source is a table name, resolved in the dictionary\'s database')
    t.equal(ddl[14].query, `CREATE OR REPLACE VIEW \`${names.latest}_src\` AS SELECT id, max(text_version) AS latest FROM \`${names.docs}\` GROUP BY id`, 'newest text versions, deleted rows included')
    t.equal(ddl[15].query, `CREATE DICTIONARY IF NOT EXISTS \`${names.latest}\` (id Int64, latest UInt64) PRIMARY KEY id SOURCE(CLICKHOUSE(TABLE '${names.latest}_src')) LAYOUT(HASHED()) LIFETIME(0)`,
      'loaded only when a compaction reloads it')
  }
  t.equal(compile(refreshSql('o', { database: 'db1' })).query, 'SYSTEM RELOAD DICTIONARY `db1`.`search_o_live_v2`')
  t.equal(compile(postingsInsertSql('o', { database: 'db1' })).query, 'INSERT INTO `db1`.`search_o_postings_v2` FORMAT Native')
  t.match(compile(searchTableDdl('o', { database: 'db1' })[13]).query, /SOURCE\(CLICKHOUSE\(TABLE 'search_o_live_v2_src' DB 'db1' INVALIDATE_QUERY 'SELECT max\(version\) FROM db1.search_o'\)\)/)
})
