import t from 'tap'
import { readFileSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { catalogue, checkCatalogue, RESOURCES, V4_ROOT_NAMES } from '../../../schemas/catalogue/index.js'
import { defineResource, t as ft, f } from '../../../schemas/define.js'
import { generatedFiles, GENERATED_DIR } from '../../../schemas/generate.js'
import { planMigrations } from '../../../schemas/migrate.js'
import { allTables } from '../../../schemas/tables.js'
import { INTERNAL_TABLES } from '../../../schemas/internal/index.js'
import { columnsOf } from '../../../schemas/ddl.js'

const options = JSON.parse(readFileSync(new URL('../../fixtures/reference/options-v4.json', import.meta.url), 'utf8')) as Record<string, { filters?: Record<string, unknown>; ordering?: string[]; actions?: { POST?: Record<string, unknown> } }>

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

// Related filters whose resources arrive with the docket-archive issue.
const PENDING_FILTERS: Record<string, string[]> = { dockets: ['docket_entries', 'parties'] }

t.test('fields, filters and orderings match the reference OPTIONS output', async (t) => {
  for (const r of catalogue.resources.filter((x) => x.api)) {
    const ref = options[r.name]
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
    t.same(refFilters.filter((n) => !ours.includes(n) && !PENDING_FILTERS[r.name]?.includes(n)), [], `${r.name}: every reference filter exists`)
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
  t.equal(all.length, catalogue.resources.length + INTERNAL_TABLES.length, 'one CREATE per table on an empty database')
  t.ok(all.some((m) => m.id === 'create:citation_state'), 'the citation network\'s state tables are migrated too')
  const existing = new Map(tables.map((x) => [x.name, new Map(x.columns.map((c) => [c.name, c.type]))]))
  t.same(planMigrations(tables, 'db', existing), [], 'nothing to do when current')
  existing.get('courts')!.delete('url')
  t.same(planMigrations(tables, 'db', existing).map((m) => m.id), ['add:courts.url'])
  existing.get('courts')!.set('url', 'Int64')
  t.throws(() => planMigrations(tables, 'db', existing), /courts.url is Int64/)
  t.ok(cols.some((c) => c.name === '_version'))
})
