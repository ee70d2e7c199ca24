import { defineResource, t, f } from '../define.js'

export const gifts = defineResource({
  name: 'gifts', label: 'Gift', model: 'Gift', plural: 'Gifts', table: 'gifts', keyKind: 'int',
  description: 'A gift a judge reported, by source and value.',
  fields: {
    resource_uri: t.uri(),
    id: t.int({ readOnly: true, input: 'field' }),
    date_created: t.created(),
    date_modified: t.modified(),
    source: t.string(),
    value: t.string(),
    redacted: t.bool(),
    financial_disclosure: t.fk('financial-disclosures', { required: true }),
  },
  filters: {
    id: f.int, date_created: f.datetime, date_modified: f.datetime, source: f.text, value: f.text, redacted: f.bool,
    financial_disclosure: f.rel('financial-disclosures', 'financial_disclosure_id'),
  },
  orderings: ['id', 'date_created', 'date_modified'],
})
