import { defineResource, field, filter } from '../define.js'

/**
 * A building where a court sits. The reference's court resource does not show its courthouses,
 * so they are kept as bulk data (topic and table) and exported back; no endpoint.
 */
export const courthouses = defineResource({
  name: 'courthouses', label: 'Courthouse', model: 'Courthouse', plural: 'Courthouses', table: 'courthouses', keyKind: 'int',
  api: false, cursorOrderings: ['id'],
  description: 'A courthouse of a court: its address and whether it is the court\u2019s seat.',
  fields: {
    id: field.int(),
    court_seat: field.bool({ nullable: true }),
    building_name: field.string(),
    address1: field.string(),
    address2: field.string(),
    city: field.string(),
    county: field.string(),
    state: field.string(),
    zip_code: field.string(),
    country_code: field.string(),
    court: field.fk('courts', { required: true }),
  },
  filters: { court: filter.model('court_id') },
  orderings: ['id'],
})
