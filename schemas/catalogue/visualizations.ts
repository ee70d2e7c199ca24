import { defineResource, t, f } from '../define.js'

/** Citation-network maps between two Supreme Court decisions. Anyone reads published maps; the owner also reads its own. */
export const visualizations = defineResource({
  name: 'visualizations', label: 'Visualization', model: 'SCOTUSMap', plural: 'Visualizations', table: 'visualizations', keyKind: 'int',
  access: 'published', owner: 'user_id', publishedFlag: 'published',
  description: 'A map of how Supreme Court decisions between two cases cite each other.',
  absoluteUrl: (r) => `/visualizations/scotus-mapper/${r.id}/md/${r.slug || 'map'}/`,
  fields: {
    resource_uri: t.uri(),
    id: t.int({ readOnly: true, input: 'field' }),
    user: t.fk('users', { hidden: true, help: 'The owning user; rows of other users are not served.' }),
    title: t.string({ required: true, maxLength: 200 }),
    cluster_start: t.fk('clusters', { required: true }),
    cluster_end: t.fk('clusters', { required: true }),
    json_versions: t.nested('visualization-json', 'map_id'),
    clusters: t.m2m('clusters', { readOnly: true }),
    absolute_url: t.uri({ input: 'string' }),
    date_created: t.created(),
    date_modified: t.modified(),
    date_published: t.datetime({ readOnly: true, nullable: true }),
    date_deleted: t.datetime({ readOnly: true, nullable: true }),
    slug: t.string({ readOnly: true, input: 'slug' }),
    notes: t.string(),
    view_count: t.int({ readOnly: true }),
    published: t.bool(),
    deleted: t.bool(),
    generation_time: t.float({ readOnly: true }),
  },
  filters: {},
  orderings: [],
})
