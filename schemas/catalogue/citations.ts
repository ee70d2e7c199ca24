import { defineResource, field, filter } from '../define.js'
import { CITATION_TYPE } from './choices.js'

/** Parallel citations of a cluster. Not an endpoint of its own: shown nested in clusters and used by citation lookup. */
export const citations = defineResource({
  name: 'citations', label: 'Citation', model: 'Citation', plural: 'Citations', table: 'citations', keyKind: 'int', api: false, cursorOrderings: ['id'],
  description: 'A parallel citation (volume, reporter, page) of an opinion cluster.',
  search: { types: ['o'], parent: { field: 'cluster', types: ['o'] } },
  fields: {
    id: field.int({ hidden: true }),
    cluster: field.fk('clusters', { hidden: true }),
    date_created: field.created(),
    date_modified: field.modified(),
    volume: field.int({ required: true, input: 'string' }),
    reporter: field.string({ required: true }),
    page: field.string({ required: true }),
    type: field.int({ choices: CITATION_TYPE, required: true }),
  },
  filters: { volume: filter.exact, reporter: filter.exact, page: filter.exact, type: filter.exact },
  orderings: ['id'],
})
