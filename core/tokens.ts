/** API tokens: 40 hex characters of randomness, stored only as a SHA-256 hash. */
import { createHash, randomBytes } from 'node:crypto'

export const newToken = (): string => randomBytes(20).toString('hex')
/** Tokens are long random strings, so an unsalted fast hash is enough to keep them unrecoverable. */
export const hashToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex')
