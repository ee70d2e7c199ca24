import { defineResource, field, filter } from '../define.js'
import { CRIMINAL_COUNT_STATUS } from './choices.js'

/** Counts a criminal defendant faces, listed under the party type. Internal. */
export const criminalCounts = defineResource({
  name: 'criminal-counts', label: 'Criminal Count', model: 'CriminalCount', plural: 'Criminal Counts', table: 'criminal_counts', keyKind: 'int', api: false, cursorOrderings: ['id'],
  description: 'One count against a criminal defendant and its disposition.',
  fields: {
    id: field.int({ readOnly: true, label: 'ID' }),
    name: field.string({ required: true }),
    disposition: field.string(),
    status: field.int({ choices: CRIMINAL_COUNT_STATUS, required: true }),
    party_type: field.fk('party-types', { required: true, asId: true }),
  },
  filters: {},
  orderings: ['id'],
})
