import { defineResource, t, f, N, TIMESTAMP_FILTERS } from '../define.js'
import { DEGREE_LEVEL } from './choices.js'
import { UINT16 } from './limits.js'

export const educations = defineResource({
  name: 'educations', label: 'Education', model: 'Education', plural: 'Educations', table: 'educations', keyKind: 'int',
  description: 'A degree a person earned at a school.',
  fields: {
    resource_uri: t.uri(),
    id: t.int({ readOnly: true, input: 'field' }),
    school: t.fk('schools', { readOnly: true, embed: true }),
    person: t.fk('people', { required: true }),
    date_created: t.created(),
    date_modified: t.modified(),
    degree_level: t.string({ choices: DEGREE_LEVEL }),
    degree_detail: t.string({ maxLength: 100 }),
    degree_year: t.int({ ...UINT16, nullable: true }),
  },
  filters: {
    ...TIMESTAMP_FILTERS, degree_year: f.exact, degree_detail: f.text, degree_level: f.choice(),
    person: f.rel('people', 'person_id'), school: f.rel('schools', 'school_id'),
  },
  orderings: ['id', 'date_created', 'date_modified'],
})
