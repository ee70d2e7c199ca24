/** What the query language refuses: the reference's messages and the error that carries them. */
import { LdsError } from '../../core/errors.js'

export const MESSAGES = {
  parentheses: 'The query contains unbalanced parentheses.',
  quotes: 'The query contains unbalanced quotes.',
  proximity: 'The query contains an unrecognized proximity token.',
  wildcard: 'The query contains a disallowed wildcard pattern.',
} as const

/** A query the language refuses: a 400 whose detail is the message; `position` is a character offset into q. */
export class SearchSyntaxError extends LdsError {
  constructor(message: string, readonly position: number) {
    super('LDS_ERR_BAD_REQUEST', { detail: message })
    this.name = 'SearchSyntaxError'
  }
}

export const syntaxError = (message: string, position: number) => new SearchSyntaxError(message, position)

/** Where in q, as messages say it. */
export const at = (position: number) => `at position ${position}`
