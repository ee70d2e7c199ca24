import t from 'tap'
import { readFileSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { catalogue, checkCatalogue, RESOURCES, V4_ROOT_NAMES } from '../../../schemas/catalogue/index.js'
import { defineResource, field as ft, filter as f } from '../../../schemas/define.js'
import { generatedFiles, GENERATED_DIR } from '../../../schemas/generate.js'
import { planMigrations } from '../../../core/migrate.js'
import { allTables, allViews, textsTable } from '../../../schemas/tables.js'
import { INTERNAL_TABLES } from '../../../schemas/internal/index.js'
import { columnsOf } from '../../../schemas/ddl.js'
import { projectFile } from '../../../core/programs.js'

const options = JSON.parse(readFileSync(projectFile('test/fixtures/reference/options-v4.json'), 'utf8')) as Record<string, { filters?: Record<string, unknown>; ordering?: string[]; actions?: { POST?: Record<string, unknown> } }>

t.test('the v4 root lists the 47 names of the spec', async (t) => {
  t.equal(V4_ROOT_NAMES.length, 48, 'every name the spec lists at the v4 root')
  t.equal(new Set(V4_ROOT_NAMES).size, V4_ROOT_NAMES.length, 'no duplicates')
  t.ok(V4_ROOT_NAMES.includes('citation-lookup'))
})

t.test('catalogue problems are caught when it loads', async (t) => {
  const broken = defineResource({
    name: 'broken', label: 'Broken', model: 'Broken', plural: 'Brokens', table: 'broken', keyKind: 'int', description: '',
    fields: { id: ft.int(), owner: ft.fk('nobody'), when: ft.date() },
    filters: { when: f.lookups('startswith'), missing: f.exact, other: f.rel('nowhere') },
    orderings: ['id', 'not_a_column'],
  })
  const problems = checkCatalogue([...RESOURCES, broken])
  t.match(problems.join('\n'), /owner points at unknown resource nobody/)
  t.match(problems.join('\n'), /ordering on not_a_column/)
  t.match(problems.join('\n'), /filter when: lookup startswith/)
  t.match(problems.join('\n'), /lookup startswith not allowed on a date/)
  t.match(problems.join('\n'), /filter missing on missing/)
  t.match(problems.join('\n'), /relates to unknown resource nowhere/)
  t.same(checkCatalogue(RESOURCES), [], 'the real catalogue is consistent')
})

t.test('fields, filters and orderings match the reference OPTIONS output', async (t) => {
  for (const r of catalogue.resources.filter((x) => x.api)) {
    const ref = options[r.path ?? r.name]
    if (!ref) continue
    const post = Object.keys(ref.actions?.POST ?? {})
    if (post.length) {
      // Every field the reference serializes is a field of ours (we may add more).
      const missing = post.filter((name) => !(name in r.fields))
      t.same(missing, [], `${r.name}: no reference field missing`)
    }
    t.same([...r.orderings].sort(), [...(ref.ordering ?? [])].sort(), `${r.name}: orderings`)
    const refFilters = Object.keys(ref.filters ?? {}).sort()
    const ours = Object.keys(r.filters).sort()
    t.same(refFilters.filter((n) => !ours.includes(n)), [], `${r.name}: every reference filter exists`)
  }
})

t.test('generated Avro schemas and DDL are checked in and current', async (t) => {
  const files = generatedFiles()
  for (const [name, text] of files) t.equal(readFileSync(path.join(GENERATED_DIR, name), 'utf8'), text, `${name} is current (run npx tsx schemas/generate.ts)`)
  t.same(readdirSync(GENERATED_DIR).sort(), [...files.keys()].sort(), 'no stale generated files')
})

t.test('migrations: create missing tables, add missing columns, refuse type changes', async (t) => {
  const courts = catalogue.get('courts')
  const cols = columnsOf(catalogue, courts)
  const tables = allTables(catalogue)
  const all = planMigrations(tables, 'db', new Map())
  const textTables = catalogue.stored.filter((r) => textsTable(catalogue, r)).length
  t.equal(textTables, 3, 'large texts\' side tables: opinions, citation texts, archive documents')
  t.equal(all.length, catalogue.stored.length + textTables + INTERNAL_TABLES.length, 'one CREATE per table on an empty database (views share theirs)')
  t.ok(all.some((m) => m.id === 'create:citation_state'), 'the citation network\'s state tables are migrated too')
  // What ClickHouse reports: one column set per table (archive-query reads archive-documents' table).
  const existing = new Map<string, Map<string, string>>()
  for (const x of tables) for (const c of x.columns) (existing.get(x.name) ?? existing.set(x.name, new Map()).get(x.name)!).set(c.name, c.type)
  t.same(planMigrations(tables, 'db', existing), [], 'nothing to do when current')
  existing.get('courts')!.delete('url')
  t.same(planMigrations(tables, 'db', existing).map((m) => m.id), ['add:courts.url'])
  existing.get('courts')!.set('url', 'Int64')
  t.throws(() => planMigrations(tables, 'db', existing), /courts.url is Int64/)
  t.ok(cols.some((c) => c.name === '_version'))
})

t.test('migrations: a large-texts side table, then its view, then one fill from the main table', async (t) => {
  const tables = allTables(catalogue)
  const views = allViews(catalogue)
  t.same(views.map((v) => v.name).sort(), ['archive_documents_texts_mv', 'citation_texts_texts_mv', 'opinions_texts_mv'])
  const ids = planMigrations(tables, 'db', new Map(), undefined, views).map((m) => m.id)
  t.ok(ids.includes('create:opinions_texts'), 'the side table is created')
  t.ok(ids.indexOf('view:opinions_texts_mv') > ids.indexOf('create:opinions_texts'), 'the view after the tables')
  t.equal(ids.indexOf('fill:opinions_texts'), ids.indexOf('view:opinions_texts_mv') + 1, 'then the fill: rows inserted meanwhile are copied twice, harmless')
  const existing = new Map<string, Map<string, string>>()
  for (const x of tables) existing.set(x.name, new Map(x.columns.map((c) => [c.name, c.type])))
  for (const v of views) existing.set(v.name, new Map(v.columns.map((c) => [c, ''])))
  t.same(planMigrations(tables, 'db', existing, undefined, views), [], 'nothing to do when current')
  // An existing deployment: main tables only (the side table and view are new).
  existing.delete('opinions_texts')
  existing.delete('opinions_texts_mv')
  const plan = planMigrations(tables, 'db', existing, undefined, views)
  t.same(plan.map((m) => m.id), ['create:opinions_texts', 'view:opinions_texts_mv', 'fill:opinions_texts'])
  t.match(plan[1].statement, /^CREATE MATERIALIZED VIEW IF NOT EXISTS `db`\.`opinions_texts_mv` TO `db`\.`opinions_texts`\nAS SELECT `id`, `plain_text`, .*`_version`, `_deleted`\nFROM `db`\.`opinions`$/)
  t.match(plan[2].statement, /^INSERT INTO `db`\.`opinions_texts` \(`id`, .*\)\nSELECT `id`, .*\nFROM `db`\.`opinions`$/)
  // A view whose columns changed (a new large field): made again, the side table filled again.
  existing.set('opinions_texts_mv', new Map([['id', ''], ['plain_text', ''], ['_version', ''], ['_deleted', '']]))
  existing.set('opinions_texts', new Map(tables.find((x) => x.name === 'opinions_texts')!.columns.map((c) => [c.name, c.type])))
  t.same(planMigrations(tables, 'db', existing, undefined, views).map((m) => m.id), ['drop:opinions_texts_mv', 'view:opinions_texts_mv', 'fill:opinions_texts'])
  // A fill that did not finish (not in _migrations): made again; the others are recorded.
  for (const v of views) existing.set(v.name, new Map(v.columns.map((c) => [c, ''])))
  const filled = new Set(views.map((v) => `fill:${v.target}`))
  t.same(planMigrations(tables, 'db', existing, undefined, views, filled), [], 'every fill recorded: nothing to do')
  filled.delete('fill:opinions_texts')
  t.same(planMigrations(tables, 'db', existing, undefined, views, filled).map((m) => m.id), ['fill:opinions_texts'], 'a fill stopped midway is made again')
})

t.test('migrations: without side tables (texts read from the read model), none made, and a view left from before dropped', async (t) => {
  const local = allTables(catalogue, { textTables: false })
  const sides = ['archive_documents_texts', 'citation_texts_texts', 'opinions_texts']
  t.same(allTables(catalogue).map((x) => x.name).filter((n) => !local.some((x) => x.name === n)).sort(), sides, 'the side tables are what is left out')
  const fresh = planMigrations(local, 'db', new Map(), undefined, [], undefined, allViews(catalogue)).map((m) => m.id)
  t.notOk(fresh.some((id) => sides.some((n) => id.includes(n))), 'a new deployment makes no side table and no view')
  const existing = new Map([['opinions_texts_mv', new Map([['id', '']])]])
  for (const x of local) existing.set(x.name, new Map(x.columns.map((c) => [c.name, c.type])))
  t.same(planMigrations(local, 'db', existing, undefined, [], undefined, allViews(catalogue)).map((m) => m.id), ['drop:opinions_texts_mv'], 'a view made before stops copying')
})

t.test('every database name of the v4 root has a catalogue entry (by name or path)', async (t) => {
  // Not database resources: search, e-mail intake endpoints, the page-view counter, citation lookup, usage.
  const elsewhere = new Set(['search', 'archive-email', 'scrapers/scotus-email', 'increment-event', 'citation-lookup', 'api-usage'])
  const served = new Set(catalogue.resources.filter((r) => r.api).map((r) => r.path ?? r.name))
  t.same(V4_ROOT_NAMES.filter((n) => !elsewhere.has(n) && !served.has(n)), [])
  // Webhook endpoints: the reference manages them on its website only; we serve them (unlisted) instead.
  const extensions = new Set(['webhooks'])
  t.same([...served].filter((n) => !extensions.has(n) && !(V4_ROOT_NAMES as readonly string[]).includes(n)), [], 'nothing else served that the root does not list')
})

t.test('access, default ordering, cursor orderings and page sizes follow the reference', async (t) => {
  const ID_DATES = ['id', 'date_created', 'date_modified']
  const facts: Record<string, { access: string; ordering?: string; cursor?: string[]; pageSize?: number }> = {
    'dockets': { access: 'authenticated' }, 'docket-entries': { access: 'authenticated' }, 'archive-documents': { access: 'authenticated' },
    'parties': { access: 'authenticated' }, 'attorneys': { access: 'authenticated' }, 'originating-court-information': { access: 'authenticated' },
    'bankruptcy-information': { access: 'authenticated' }, 'fjc-integrated-database': { access: 'authenticated' },
    'archive-query': { access: 'authenticated', pageSize: 300 },
    'financial-disclosures': { access: 'public' }, 'debts': { access: 'public' }, 'investments': { access: 'public' },
    'tags': { access: 'published', pageSize: 50 },
    'docket-tags': { access: 'published', cursor: ['id'], pageSize: 50 },
    'alerts': { access: 'owner', ordering: '-date_created', cursor: ['date_created'], pageSize: 50 },
    'docket-alerts': { access: 'owner', ordering: '-date_created', cursor: ['date_created'], pageSize: 50 },
    'prayers': { access: 'owner', ordering: '-date_created', cursor: ['date_created'], pageSize: 50 },
    'archive-fetch': { access: 'owner', cursor: [...ID_DATES, 'date_completed'] },
    'memberships': { access: 'owner' }, 'archive': { access: 'owner' },
    'sources': { access: 'public', cursor: ['id', 'date_modified'] }, 'opinions-cited': { access: 'authenticated', cursor: ['id'] },
  }
  for (const [name, f] of Object.entries(facts)) {
    const r = catalogue.get(name)
    t.equal(r.access, f.access, `${name}: access`)
    t.equal(r.ordering, f.ordering ?? '-id', `${name}: default ordering`)
    t.same(r.cursorOrderings, f.cursor ?? ID_DATES, `${name}: cursor orderings`)
    t.equal(r.pageSize, f.pageSize, `${name}: page size`)
    if (r.access === 'owner' || r.access === 'published') {
      const owner = Object.entries(r.fields).find(([n, d]) => d.kind === 'fk' && `${n}_id` === r.owner)
      t.ok(owner?.[1].hidden, `${name}: the owner column ${r.owner} is stored and hidden`)
    }
    if (r.access === 'published') t.equal(r.fields[r.publishedFlag ?? '']?.kind, 'bool', `${name}: published flag`)
  }
  t.same(catalogue.get('prayers').writes, { create: true, update: false }, 'prayers: no PUT')
  t.same(catalogue.get('archive').writes, { create: false, update: false }, 'the upload queue is read-only')
})

t.test('a resource reading another\'s table must agree on the shared columns', async (t) => {
  const docs = catalogue.get('archive-documents')
  const view = defineResource({
    name: 'bad-view', label: 'Bad', model: 'Bad', plural: 'Bads', table: docs.table, keyKind: 'int', description: '',
    fields: { id: ft.int(), sha1: ft.int(), nowhere: ft.string() }, filters: {}, orderings: [],
  })
  const problems = checkCatalogue([...RESOURCES, view]).join('\n')
  t.match(problems, /bad-view: column sha1 differs from archive-documents/)
  t.match(problems, /bad-view: column nowhere is not a column of archive-documents/)
})
