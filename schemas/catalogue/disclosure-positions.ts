import { defineResource, field, filter } from '../define.js'

export const disclosurePositions = defineResource({
  name: 'disclosure-positions', label: 'Position', model: 'Position', plural: 'Positions', table: 'disclosure_positions', keyKind: 'int',
  description: 'A position outside the court a judge reported holding.',
  fields: {
    resource_uri: field.uri(),
    id: field.int({ readOnly: true, input: 'field' }),
    date_created: field.created(),
    date_modified: field.modified(),
    position: field.string(),
    organization_name: field.string(),
    redacted: field.bool(),
    financial_disclosure: field.fk('financial-disclosures', { required: true }),
  },
  filters: {
    id: filter.int, date_created: filter.datetime, date_modified: filter.datetime, redacted: filter.bool, position: filter.text, organization_name: filter.text,
    financial_disclosure: filter.rel('financial-disclosures', 'financial_disclosure_id'),
  },
  orderings: ['id', 'date_created', 'date_modified'],
})
