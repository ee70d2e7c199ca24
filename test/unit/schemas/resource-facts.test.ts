/**
 * Facts about a resource that run outside the catalogue (write hooks, overlays, search sources)
 * are declared on the resource by name; each name must have its implementation, and each
 * implementation a resource that declares it.
 */
import t from 'tap'
import { buildCatalogue, checkCatalogue, RESOURCES } from '../../../schemas/catalogue/index.js'
import type { ResourceDef } from '../../../schemas/define.js'
import { checkWriteHooks, WRITE_HOOKS } from '../../../api/writes/hooks.js'
import { checkOverlays, citationOverlays, OVERLAY_DEPENDENCIES } from '../../../api/plugins/citation-overlays.js'
import { checkSearchSources, PARENTS, SEARCH_SOURCES } from '../../../streams/search/documents.js'

/** The catalogue with one resource changed. */
const changed = (name: string, change: (r: ResourceDef) => ResourceDef) => buildCatalogue(RESOURCES.map((r) => (r.name === name ? change(r) : r)))
const full = buildCatalogue()

t.test('the catalogue and the implementations agree', async (t) => {
  t.same(checkWriteHooks(full), [])
  t.same(checkOverlays(full), [])
  t.same(checkSearchSources(full), [])
  t.same(Object.keys(WRITE_HOOKS).sort(), ['alerts', 'archive-fetch', 'docket-alerts', 'docket-tags', 'prayers', 'tags', 'webhooks'], 'writable resources')
  t.same(Object.keys(citationOverlays).sort(), ['clusters', 'opinions'])
  t.same(OVERLAY_DEPENDENCIES.opinions, ['citation-texts'])
  t.same(SEARCH_SOURCES.oa, ['courts', 'dockets', 'audio'], 'the tables oral-argument documents read')
  t.same(PARENTS.parties.of({ docket_ids: [3, 1, 3] }), [3, 1], 'a party belongs to each of its dockets once')
  t.same(PARENTS.opinions.of({ cluster_id: 7 }), [7])
  t.equal(PARENTS.opinions.parent, 'clusters')
})

t.test('a write hook declared without an implementation, or implemented for no resource', async (t) => {
  const cat = changed('alerts', (r) => ({ ...r, writeHooks: 'saved-search' }))
  t.same(checkWriteHooks(cat), [
    'alerts: write hooks saved-search has no implementation',
    'write hooks search-alert is implemented but no resource declares it',
  ])
})

t.test('an overlay declared without an implementation, or implemented for no resource', async (t) => {
  t.same(checkOverlays(changed('clusters', (r) => ({ ...r, overlay: undefined }))), ['overlay citation-count is implemented but no resource declares it'])
  t.same(checkOverlays(changed('opinions', (r) => ({ ...r, overlay: 'footnotes' }))), [
    'opinions: overlay footnotes has no implementation',
    'overlay linked-text is implemented but no resource declares it',
  ])
})

t.test('a search source declared without a lookup, or a lookup for no declared source', async (t) => {
  t.same(checkSearchSources(changed('audio', (r) => ({ ...r, search: undefined }))), ['search lookup oa:audio is implemented but no resource declares it'])
  t.same(checkSearchSources(changed('schools', (r) => ({ ...r, search: { types: ['p', 'o'] } }))), ['schools: search type o has no lookup of the documents a change touches'])
  // a parent link covers the type: a lookup of its own would never run
  t.same(checkSearchSources(changed('dockets', (r) => ({ ...r, search: { types: ['o', 'r', 'd', 'rd', 'oa'], parent: { field: 'court', types: ['oa'] } } }))),
    ['search lookup oa:dockets is implemented but no resource declares it'])
})

t.test('the catalogue refuses a search parent that is no relation, or whose parent has no such documents', async (t) => {
  const withParent = (parent: { field: string; types: readonly ('o' | 'p')[] }) => RESOURCES.map((r) => (r.name === 'citations' ? { ...r, search: { types: ['o', 'p'] as const, parent } } : r))
  t.same(checkCatalogue(withParent({ field: 'volume', types: ['o'] })), ['citations: search parent volume is not a foreign key or many-to-many field'])
  t.same(checkCatalogue(withParent({ field: 'cluster', types: ['p'] })), ['citations: search parent clusters has no documents of type p'])
})
