import { defineResource, t, f, N } from '../define.js'

/** The part a party plays in one docket (plaintiff, defendant...), listed under `parties.party_types`. Internal. */
export const partyTypes = defineResource({
  name: 'party-types', label: 'Party Type', model: 'PartyType', plural: 'Party Types', table: 'party_types', keyKind: 'int', api: false, cursorOrderings: ['id'],
  description: 'The part a party plays in a docket, with criminal counts and complaints for defendants.',
  fields: {
    id: t.int({ hidden: true }),
    party: t.fk('parties', { hidden: true }),
    docket: t.fk('dockets', { required: true }),
    docket_id: t.fkId('docket'),
    name: t.string({ required: true, maxLength: 100 }),
    date_terminated: t.date(N),
    extra_info: t.string(),
    highest_offense_level_opening: t.string(),
    highest_offense_level_terminated: t.string(),
    criminal_counts: t.nested('criminal-counts', 'party_type_id', { required: true, readOnly: false }),
    criminal_complaints: t.nested('criminal-complaints', 'party_type_id', { required: true, readOnly: false }),
  },
  filters: { name: f.exact },
  orderings: ['id'],
})
