import { defineResource, field, filter } from '../define.js'

/** Complaints against a criminal defendant, listed under the party type. Internal. */
export const criminalComplaints = defineResource({
  name: 'criminal-complaints', label: 'Criminal Complaint', model: 'CriminalComplaint', plural: 'Criminal Complaints', table: 'criminal_complaints', keyKind: 'int', api: false, cursorOrderings: ['id'],
  description: 'One complaint against a criminal defendant and its disposition.',
  fields: {
    id: field.int({ readOnly: true, label: 'ID' }),
    name: field.string({ required: true }),
    disposition: field.string(),
    party_type: field.fk('party-types', { required: true, asId: true }),
  },
  filters: {},
  orderings: ['id'],
})
