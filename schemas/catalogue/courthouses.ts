import { defineResource, t, f } from '../define.js'

/**
 * A building where a court sits. The reference's court resource does not show its courthouses,
 * so they are kept as bulk data (topic and table) and exported back; no endpoint.
 */
export const courthouses = defineResource({
  name: 'courthouses', label: 'Courthouse', model: 'Courthouse', plural: 'Courthouses', table: 'courthouses', keyKind: 'int',
  api: false, cursorOrderings: ['id'],
  description: 'A courthouse of a court: its address and whether it is the court\u2019s seat.',
  fields: {
    id: t.int(),
    court_seat: t.bool({ nullable: true }),
    building_name: t.string(),
    address1: t.string(),
    address2: t.string(),
    city: t.string(),
    county: t.string(),
    state: t.string(),
    zip_code: t.string(),
    country_code: t.string(),
    court: t.fk('courts', { required: true }),
  },
  filters: { court: f.model('court_id') },
  orderings: ['id'],
})
