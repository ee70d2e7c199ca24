/**
 * Who a credential belongs to, answered from the read model (no ClickHouse query per request): a
 * token by its SHA-256 hash, a username and password by the user's scrypt hash. A user deleted or
 * made inactive on the users topic stops authenticating as soon as the read model applies it.
 */
import { createHash } from 'node:crypto'
import { hashToken } from '../../core/tokens.js'
import { verifyPassword } from '../../core/passwords.js'
import type { ReadStore } from './store.js'

export interface ApiUser { id: number; username: string; can_write: boolean; citation_rate: string; rate: string }

export interface UserDirectory {
  byToken(token: string): ApiUser | null
  byPassword(username: string, password: string): Promise<ApiUser | null>
  byId(id: number): ApiUser | null
}

const toUser = (row: Record<string, unknown> | undefined): ApiUser | null => (row && row.is_active
  ? { id: Number(row.id), username: String(row.username), can_write: !!row.can_write, citation_rate: String(row.citation_rate ?? ''), rate: String(row.rate ?? '') }
  : null)

/** Successful password checks kept this long, keyed by the credentials and the stored hash. */
const VERIFIED_TTL_MS = 5 * 60_000

/** Tokens whose user is kept decoded; the whole map is dropped whenever the users change. */
const TOKEN_CACHE_SIZE = 10_000

export function createUserDirectory(store: ReadStore): UserDirectory {
  const first = (column: string, value: string) => { const [id] = store.keysWhere('users', column, value); return id === undefined ? undefined : store.get('users', id) }
  const verified = new Map<string, number>()
  // token → user, keyed by the token as presented: saves a SHA-256, an index read and a row decode
  // per request (the process holds the tokens of requests anyway). Any change to the users
  // (whichever process of the host applied it) moves the store's epoch and empties it.
  const byToken = new Map<string, ApiUser | null>()
  let usersEpoch = -1
  return {
    byToken(token) {
      const epoch = store.epoch('users')
      if (epoch !== usersEpoch) { byToken.clear(); usersEpoch = epoch }
      let user = byToken.get(token)
      if (user === undefined) {
        user = toUser(first('token_hash', hashToken(token)))
        if (byToken.size >= TOKEN_CACHE_SIZE) byToken.delete(byToken.keys().next().value!)
        byToken.set(token, user)
      }
      return user
    },
    byId: (id) => toUser(store.get('users', id)),
    async byPassword(username, password) {
      const row = first('username', username)
      const user = toUser(row)
      const stored = String(row?.password_hash ?? '')
      if (!user || !stored) return null
      const key = createHash('sha256').update(`${username}\u0000${password}\u0000${stored}`).digest('hex')
      const at = verified.get(key)
      if (at !== undefined && Date.now() - at < VERIFIED_TTL_MS) return user
      if (!(await verifyPassword(password, stored))) return null
      if (verified.size > 10_000) verified.clear()
      verified.set(key, Date.now())
      return user
    },
  }
}
