import { defineResource, t, f } from '../define.js'
import { CRIMINAL_COUNT_STATUS } from './choices.js'

/** Counts a criminal defendant faces, listed under the party type. Internal. */
export const criminalCounts = defineResource({
  name: 'criminal-counts', label: 'Criminal Count', model: 'CriminalCount', plural: 'Criminal Counts', table: 'criminal_counts', keyKind: 'int', api: false, cursorOrderings: ['id'],
  description: 'One count against a criminal defendant and its disposition.',
  fields: {
    id: t.int({ readOnly: true, label: 'ID' }),
    name: t.string({ required: true }),
    disposition: t.string(),
    status: t.int({ choices: CRIMINAL_COUNT_STATUS, required: true }),
    party_type: t.fk('party-types', { required: true, asId: true }),
  },
  filters: {},
  orderings: ['id'],
})
