import t from 'tap'
import { readFileSync } from 'node:fs'
import { catalogue } from '../../../schemas/catalogue/index.js'
import { compileDescription } from '../../../api/engine/describe.js'

const reference = JSON.parse(readFileSync(new URL('../../fixtures/reference/options-v4.json', import.meta.url), 'utf8')) as Record<string, { name: string; filters?: Record<string, { type: string; lookup_types: unknown }>; ordering?: string[] }>
// Related filters whose resources arrive with the docket-archive issue.
const PENDING: Record<string, string[]> = { dockets: ['docket_entries', 'parties'] }

t.test('OPTIONS names, filters (class and lookups) and orderings match the reference', async (t) => {
  for (const r of catalogue.resources.filter((x) => x.api)) {
    const ref = reference[r.name]
    const ours = compileDescription(catalogue, r)('List')
    t.equal(ours.name, ref.name, `${r.name}: name`)
    t.same(ours.ordering, ref.ordering, `${r.name}: ordering`)
    const refFilters = Object.fromEntries(Object.entries(ref.filters ?? {}).filter(([k]) => !PENDING[r.name]?.includes(k)).map(([k, f]) => [k, { type: f.type, lookup_types: f.lookup_types }]))
    t.same(ours.filters ?? {}, refFilters, `${r.name}: filters`)
  }
  t.equal(compileDescription(catalogue, catalogue.get('courts'))('Instance').name, 'Court Instance')
})
