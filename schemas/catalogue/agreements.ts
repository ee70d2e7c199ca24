import { defineResource, t, f } from '../define.js'

export const agreements = defineResource({
  name: 'agreements', label: 'Agreement', model: 'Agreement', plural: 'Agreements', table: 'agreements', keyKind: 'int',
  description: 'An agreement or arrangement a judge reported, such as a leave of absence or a future job.',
  fields: {
    resource_uri: t.uri(),
    id: t.int({ readOnly: true, input: 'field' }),
    date_created: t.created(),
    date_modified: t.modified(),
    date_raw: t.string(),
    parties_and_terms: t.string(),
    redacted: t.bool(),
    financial_disclosure: t.fk('financial-disclosures', { required: true }),
  },
  filters: {
    id: f.int, date_created: f.datetime, date_modified: f.datetime, redacted: f.bool, parties_and_terms: f.text, date_raw: f.text,
    financial_disclosure: f.rel('financial-disclosures', 'financial_disclosure_id'),
  },
  orderings: ['id', 'date_created', 'date_modified'],
})
