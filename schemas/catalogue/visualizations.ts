import { defineResource, field, filter } from '../define.js'

/** Citation-network maps between two Supreme Court decisions. Anyone reads published maps; the owner also reads its own. */
export const visualizations = defineResource({
  name: 'visualizations', label: 'Visualization', model: 'SCOTUSMap', plural: 'Visualizations', table: 'visualizations', keyKind: 'int',
  access: 'published', owner: 'user_id', publishedFlag: 'published',
  description: 'A map of how Supreme Court decisions between two cases cite each other.',
  absoluteUrl: (r) => `/visualizations/scotus-mapper/${r.id}/md/${r.slug || 'map'}/`,
  fields: {
    resource_uri: field.uri(),
    id: field.int({ readOnly: true, input: 'field' }),
    user: field.fk('users', { hidden: true, help: 'The owning user; rows of other users are not served.' }),
    title: field.string({ required: true, maxLength: 200 }),
    cluster_start: field.fk('clusters', { required: true }),
    cluster_end: field.fk('clusters', { required: true }),
    json_versions: field.nested('visualization-json', 'map_id'),
    clusters: field.m2m('clusters', { readOnly: true }),
    absolute_url: field.uri({ input: 'string' }),
    date_created: field.created(),
    date_modified: field.modified(),
    date_published: field.datetime({ readOnly: true, nullable: true }),
    date_deleted: field.datetime({ readOnly: true, nullable: true }),
    slug: field.string({ readOnly: true, input: 'slug' }),
    notes: field.string(),
    view_count: field.int({ readOnly: true }),
    published: field.bool(),
    deleted: field.bool(),
    generation_time: field.float({ readOnly: true }),
  },
  filters: {},
  orderings: [],
})
