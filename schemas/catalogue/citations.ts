import { defineResource, t, f } from '../define.js'

/** Parallel citations of a cluster. Not an endpoint of its own: shown nested in clusters and used by citation lookup. */
export const citations = defineResource({
  name: 'citations', label: 'Citation', model: 'Citation', plural: 'Citations', table: 'citations', keyKind: 'int', api: false, cursorOrderings: ['id'],
  description: 'A parallel citation (volume, reporter, page) of an opinion cluster.',
  fields: {
    id: t.int(),
    cluster: t.fk('clusters'),
    volume: t.int(),
    reporter: t.string(),
    page: t.string(),
    type: t.int(),
    date_created: t.created(),
    date_modified: t.modified(),
  },
  filters: { volume: f.exact, reporter: f.exact, page: f.exact, type: f.exact },
  orderings: ['id'],
})
