import { defineResource, t, f, N } from '../define.js'
import { ATTORNEY_ROLE } from './choices.js'

/** Who represents whom in which case: the rows behind `parties.attorneys` and `attorneys.parties_represented`. Internal. */
export const attorneyRoles = defineResource({
  name: 'attorney-roles', label: 'Attorney Role', model: 'Role', plural: 'Attorney Roles', table: 'attorney_roles', keyKind: 'int', api: false, cursorOrderings: ['id'],
  description: 'An attorney acting for a party in one docket, in a given role.',
  fields: {
    id: t.int(),
    role: t.int({ choices: ATTORNEY_ROLE, required: true }),
    docket: t.fk('dockets', { required: true }),
    party: t.fk('parties', { required: true }),
    date_action: t.date(N),
    attorney: t.fk('attorneys', { required: true }),
    attorney_id: t.fkId('attorney'),
    docket_id: t.fkId('docket'),
  },
  filters: { role: f.exact },
  orderings: ['id'],
})
