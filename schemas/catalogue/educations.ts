import { defineResource, t, f, N, TIMESTAMP_FILTERS } from '../define.js'

export const educations = defineResource({
  name: 'educations', label: 'Education', model: 'Education', plural: 'Educations', table: 'educations', keyKind: 'int',
  description: 'A degree a person earned at a school.',
  fields: {
    resource_uri: t.uri(), id: t.int(), school: t.fk('schools', { embed: true }), person: t.fk('people'),
    date_created: t.created(), date_modified: t.modified(),
    degree_level: t.string(), degree_detail: t.string(), degree_year: t.int(N),
  },
  filters: {
    ...TIMESTAMP_FILTERS, degree_year: f.exact, degree_detail: f.text, degree_level: f.choice(),
    person: f.rel('people', 'person_id'), school: f.rel('schools', 'school_id'),
  },
  orderings: ['id', 'date_created', 'date_modified'],
})
