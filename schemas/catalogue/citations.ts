import { defineResource, t, f } from '../define.js'
import { CITATION_TYPE } from './choices.js'

/** Parallel citations of a cluster. Not an endpoint of its own: shown nested in clusters and used by citation lookup. */
export const citations = defineResource({
  name: 'citations', label: 'Citation', model: 'Citation', plural: 'Citations', table: 'citations', keyKind: 'int', api: false, cursorOrderings: ['id'],
  description: 'A parallel citation (volume, reporter, page) of an opinion cluster.',
  fields: {
    id: t.int({ hidden: true }),
    cluster: t.fk('clusters', { hidden: true }),
    date_created: t.created(),
    date_modified: t.modified(),
    volume: t.int({ required: true, input: 'string' }),
    reporter: t.string({ required: true }),
    page: t.string({ required: true }),
    type: t.int({ choices: CITATION_TYPE, required: true }),
  },
  filters: { volume: f.exact, reporter: f.exact, page: f.exact, type: f.exact },
  orderings: ['id'],
})
