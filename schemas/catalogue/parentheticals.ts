import { defineResource, field, filter } from '../define.js'
import { INT32 } from './limits.js'

/**
 * A short description of a cited opinion in a citing one ("holding that …"). Bulk data only: the
 * reference publishes it in its bulk files and has no endpoint for it, so neither do we; it has
 * its own topic and table for analytics.
 */
export const parentheticals = defineResource({
  name: 'parentheticals', label: 'Parenthetical', model: 'Parenthetical', plural: 'Parentheticals', table: 'parentheticals', keyKind: 'int',
  api: false, cursorOrderings: ['id'],
  description: 'How a citing opinion describes an opinion it cites, with a quality score.',
  fields: {
    id: field.int(),
    text: field.string(),
    score: field.float(),
    described_opinion: field.fk('opinions', { required: true }),
    describing_opinion: field.fk('opinions', { required: true }),
    group_id: field.int({ ...INT32, nullable: true }),
  },
  filters: { described_opinion: filter.model('described_opinion_id'), describing_opinion: filter.model('describing_opinion_id') },
  orderings: ['id'],
})
