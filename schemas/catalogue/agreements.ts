import { defineResource, field, filter } from '../define.js'

export const agreements = defineResource({
  name: 'agreements', label: 'Agreement', model: 'Agreement', plural: 'Agreements', table: 'agreements', keyKind: 'int',
  description: 'An agreement or arrangement a judge reported, such as a leave of absence or a future job.',
  fields: {
    resource_uri: field.uri(),
    id: field.int({ readOnly: true, input: 'field' }),
    date_created: field.created(),
    date_modified: field.modified(),
    date_raw: field.string(),
    parties_and_terms: field.string(),
    redacted: field.bool(),
    financial_disclosure: field.fk('financial-disclosures', { required: true }),
  },
  filters: {
    id: filter.int, date_created: filter.datetime, date_modified: filter.datetime, redacted: filter.bool, parties_and_terms: filter.text, date_raw: filter.text,
    financial_disclosure: filter.rel('financial-disclosures', 'financial_disclosure_id'),
  },
  orderings: ['id', 'date_created', 'date_modified'],
})
