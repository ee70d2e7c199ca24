import { defineResource, field, filter, N } from '../define.js'
import { ATTORNEY_ROLE } from './choices.js'

/** Who represents whom in which case: the rows behind `parties.attorneys` and `attorneys.parties_represented`. Internal. */
export const attorneyRoles = defineResource({
  name: 'attorney-roles', label: 'Attorney Role', model: 'Role', plural: 'Attorney Roles', table: 'attorney_roles', keyKind: 'int', api: false, cursorOrderings: ['id'],
  description: 'An attorney acting for a party in one docket, in a given role.',
  fields: {
    id: field.int(),
    role: field.int({ choices: ATTORNEY_ROLE, required: true }),
    docket: field.fk('dockets', { required: true }),
    party: field.fk('parties', { required: true }),
    date_action: field.date(N),
    attorney: field.fk('attorneys', { required: true }),
    attorney_id: field.fkId('attorney'),
    docket_id: field.fkId('docket'),
  },
  filters: { role: filter.exact },
  orderings: ['id'],
})
