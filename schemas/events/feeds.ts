/**
 * Which entity topics are the public feed (what outside consumers may read) and which are the
 * service's own. Users' accounts, tokens, webhooks, alerts and other per-user rows are internal:
 * their topics carry token hashes, webhook secrets and private queries.
 */
import type { ResourceDef } from '../define.js'
import type { Catalogue } from '../catalogue/index.js'

export type Feed = 'public' | 'internal'

/** A resource's feed: declared on it, or internal when its rows belong to a user (`owner`). */
export function feedOf(r: ResourceDef): Feed {
  return r.feed ?? (r.owner ? 'internal' : 'public')
}

/** Resources whose entity topics outside consumers may read, in catalogue order. */
export function publicFeedResources(cat: Catalogue): ResourceDef[] {
  return cat.stored.filter((r) => feedOf(r) === 'public')
}
