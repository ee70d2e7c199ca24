import { defineResource, t, f } from '../define.js'

/** Complaints against a criminal defendant, listed under the party type. Internal. */
export const criminalComplaints = defineResource({
  name: 'criminal-complaints', label: 'Criminal Complaint', model: 'CriminalComplaint', plural: 'Criminal Complaints', table: 'criminal_complaints', keyKind: 'int', api: false, cursorOrderings: ['id'],
  description: 'One complaint against a criminal defendant and its disposition.',
  fields: {
    id: t.int({ readOnly: true, label: 'ID' }),
    name: t.string({ required: true }),
    disposition: t.string(),
    party_type: t.fk('party-types', { required: true, asId: true }),
  },
  filters: {},
  orderings: ['id'],
})
