import { defineResource, field } from '../define.js'
import { RACE } from './choices.js'

/**
 * The reference's race code table (`people_db_race`): the ids its person-race link rows point at.
 * Kept so that a link file read without the code file of the same snapshot still finds its codes,
 * and so the export writes the table back. A person shows the codes themselves (`people.race`).
 */
export const races = defineResource({
  name: 'races', label: 'Race', model: 'Race', plural: 'Races', table: 'races', keyKind: 'int',
  api: false, cursorOrderings: ['id'],
  description: 'A race code and the id the reference gives it.',
  fields: {
    id: field.int(),
    race: field.string({ choices: RACE, required: true }),
  },
  filters: {},
  orderings: ['id'],
})
