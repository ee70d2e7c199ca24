import { defineResource, field, filter } from '../define.js'

/** The data behind a visualization, one row per version. Served at visualizations/json; `user_id` and `published` copy the map's. */
export const visualizationJson = defineResource({
  name: 'visualization-json', label: 'Json', model: 'JSONVersion', plural: 'Json Versions', table: 'visualization_json', keyKind: 'int', path: 'visualizations/json',
  access: 'published', owner: 'user_id', publishedFlag: 'published',
  description: 'One version of the data a visualization draws.',
  fields: {
    resource_uri: field.uri(),
    id: field.int({ readOnly: true, input: 'field' }),
    user: field.fk('users', { hidden: true, help: 'Owner of the visualization (copied from it).' }),
    published: field.bool({ hidden: true, help: 'Whether the visualization is published (copied from it).' }),
    date_created: field.created(),
    date_modified: field.modified(),
    json_data: field.string({ required: true }),
    map: field.fk('visualizations', { required: true }),
  },
  filters: {},
  orderings: [],
})
