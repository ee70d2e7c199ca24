import { defineResource, t, f } from '../define.js'

export const disclosurePositions = defineResource({
  name: 'disclosure-positions', label: 'Position', model: 'Position', plural: 'Positions', table: 'disclosure_positions', keyKind: 'int',
  description: 'A position outside the court a judge reported holding.',
  fields: {
    resource_uri: t.uri(),
    id: t.int({ readOnly: true, input: 'field' }),
    date_created: t.created(),
    date_modified: t.modified(),
    position: t.string(),
    organization_name: t.string(),
    redacted: t.bool(),
    financial_disclosure: t.fk('financial-disclosures', { required: true }),
  },
  filters: {
    id: f.int, date_created: f.datetime, date_modified: f.datetime, redacted: f.bool, position: f.text, organization_name: f.text,
    financial_disclosure: f.rel('financial-disclosures', 'financial_disclosure_id'),
  },
  orderings: ['id', 'date_created', 'date_modified'],
})
