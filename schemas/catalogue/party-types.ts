import { defineResource, field, filter, N } from '../define.js'

/** The part a party plays in one docket (plaintiff, defendant...), listed under `parties.party_types`. Internal. */
export const partyTypes = defineResource({
  name: 'party-types', label: 'Party Type', model: 'PartyType', plural: 'Party Types', table: 'party_types', keyKind: 'int', api: false, cursorOrderings: ['id'],
  description: 'The part a party plays in a docket, with criminal counts and complaints for defendants.',
  fields: {
    id: field.int({ hidden: true }),
    party: field.fk('parties', { hidden: true }),
    docket: field.fk('dockets', { required: true }),
    docket_id: field.fkId('docket'),
    name: field.string({ required: true, maxLength: 100 }),
    date_terminated: field.date(N),
    extra_info: field.string(),
    highest_offense_level_opening: field.string(),
    highest_offense_level_terminated: field.string(),
    criminal_counts: field.nested('criminal-counts', 'party_type_id', { required: true, readOnly: false }),
    criminal_complaints: field.nested('criminal-complaints', 'party_type_id', { required: true, readOnly: false }),
  },
  filters: { name: filter.exact },
  orderings: ['id'],
})
