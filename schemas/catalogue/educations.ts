import { defineResource, field, filter, N, TIMESTAMP_FILTERS } from '../define.js'
import { DEGREE_LEVEL } from './choices.js'
import { UINT16 } from './limits.js'

export const educations = defineResource({
  name: 'educations', label: 'Education', model: 'Education', plural: 'Educations', table: 'educations', keyKind: 'int',
  description: 'A degree a person earned at a school.',
  search: { types: ['p'], parent: { field: 'person', types: ['p'] } },
  fields: {
    resource_uri: field.uri(),
    id: field.int({ readOnly: true, input: 'field' }),
    school: field.fk('schools', { readOnly: true, embed: true }),
    person: field.fk('people', { required: true }),
    date_created: field.created(),
    date_modified: field.modified(),
    degree_level: field.string({ choices: DEGREE_LEVEL }),
    degree_detail: field.string({ maxLength: 100 }),
    degree_year: field.int({ ...UINT16, nullable: true }),
  },
  filters: {
    ...TIMESTAMP_FILTERS, degree_year: filter.exact, degree_detail: filter.text, degree_level: filter.choice(),
    person: filter.rel('people', 'person_id'), school: filter.rel('schools', 'school_id'),
  },
  orderings: ['id', 'date_created', 'date_modified'],
})
