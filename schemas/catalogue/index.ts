/**
 * The catalogue: every resource the service stores, checked once when it loads so that a
 * typo (an unknown relation target, an ordering on a missing field, a lookup the field kind
 * does not allow) fails at boot rather than on the first request.
 */
import { columnOf, type ResourceDef } from '../define.js'
import { KINDS, isStored } from '../kinds.js'
import { courts } from './courts.js'
import { dockets } from './dockets.js'
import { clusters } from './clusters.js'
import { citations } from './citations.js'
import { opinions } from './opinions.js'
import { opinionsCited } from './opinions-cited.js'
import { audio } from './audio.js'
import { tag } from './tag.js'
import { people } from './people.js'
import { schools } from './schools.js'
import { educations } from './educations.js'
import { politicalAffiliations } from './political-affiliations.js'
import { abaRatings } from './aba-ratings.js'
import { sources } from './sources.js'
import { positions } from './positions.js'
import { retentionEvents } from './retention-events.js'
import { users } from './users.js'

/** In dependency order: a resource comes after those its foreign keys point at (where acyclic). */
export const RESOURCES: readonly ResourceDef[] = [
  courts, schools, people, sources, educations, politicalAffiliations, abaRatings, positions, retentionEvents,
  tag, dockets, clusters, citations, opinions, opinionsCited, audio, users,
]

/** Every name the v4 root lists, in the reference's order. Names without a resource here are still listed. */
export const V4_ROOT_NAMES = [
  'search', 'dockets', 'bankruptcy-information', 'originating-court-information', 'docket-entries', 'archive-documents',
  'courts', 'audio', 'clusters', 'opinions', 'opinions-cited', 'tag', 'people', 'positions', 'retention-events',
  'educations', 'schools', 'political-affiliations', 'sources', 'aba-ratings', 'parties', 'attorneys', 'archive',
  'archive-email', 'archive-fetch', 'archive-query', 'fjc-integrated-database', 'scrapers/scotus-email', 'tags',
  'docket-tags', 'prayers', 'increment-event', 'visualizations/json', 'visualizations', 'agreements', 'debts',
  'financial-disclosures', 'gifts', 'investments', 'non-investment-incomes', 'disclosure-positions', 'reimbursements',
  'spouse-incomes', 'alerts', 'docket-alerts', 'memberships', 'citation-lookup', 'api-usage',
] as const

export interface Catalogue {
  readonly resources: readonly ResourceDef[]
  get(name: string): ResourceDef
  has(name: string): boolean
  /** Stored columns of a resource: [column, field name]. */
  columns(r: ResourceDef): [string, string][]
}

export function checkCatalogue(resources: readonly ResourceDef[]): string[] {
  const problems: string[] = []
  const byName = new Map(resources.map((r) => [r.name, r]))
  const storedColumns = (r: ResourceDef) => new Set(Object.entries(r.fields).filter(([, d]) => isStored(d.kind)).map(([n, d]) => columnOf(n, d)))
  for (const r of resources) {
    const where = (s: string) => problems.push(`${r.name}: ${s}`)
    if (!r.fields[r.key]) where(`key field ${r.key} missing`)
    for (const [name, d] of Object.entries(r.fields)) {
      if (d.target && !byName.has(d.target)) where(`field ${name} points at unknown resource ${d.target}`)
      if (d.kind === 'fk_id' && r.fields[d.of ?? '']?.kind !== 'fk') where(`field ${name} shows the id of ${d.of}, which is not a foreign key`)
      if (d.kind === 'reverse' || d.kind === 'nested') {
        const from = byName.get(d.from ?? d.target ?? '')
        if (!from) where(`field ${name} reads unknown resource ${d.from ?? d.target}`)
        else if (!storedColumns(from).has(d.via ?? '')) where(`field ${name}: ${from.name} has no column ${d.via}`)
      }
    }
    const cols = storedColumns(r)
    for (const o of r.orderings) if (!cols.has(o)) where(`ordering on ${o}, which is not a stored column`)
    for (const o of r.cursorOrderings) if (!cols.has(o)) where(`cursor ordering ${o} is not a stored column`)
    if (!cols.has(r.ordering.replace(/^-/, ''))) where(`default ordering ${r.ordering} is not a stored column`)
    for (const [name, fd] of Object.entries(r.filters)) {
      if (fd.related) {
        if (!byName.has(fd.related)) where(`filter ${name} relates to unknown resource ${fd.related}`)
        else if (fd.reverse && !['fk', 'm2m'].includes(byName.get(fd.related)!.fields[fd.reverse]?.kind ?? '')) where(`filter ${name}: ${fd.related}.${fd.reverse} is not a relation`)
        continue
      }
      const col = fd.field ?? name
      const field = Object.entries(r.fields).find(([n, d]) => columnOf(n, d) === col || n === col)
      if (!field || !isStored(field[1].kind)) { where(`filter ${name} on ${col}, which is not a stored column`); continue }
      const allowed = new Set<string>([...KINDS[field[1].kind as keyof typeof KINDS].lookups, 'in', 'isnull'])
      for (const l of fd.lookups ?? []) if (!allowed.has(l)) where(`filter ${name}: lookup ${l} not allowed on a ${field[1].kind}`)
    }
  }
  return problems
}

export function buildCatalogue(resources: readonly ResourceDef[] = RESOURCES): Catalogue {
  const problems = checkCatalogue(resources)
  if (problems.length) throw new Error(`catalogue is inconsistent:\n  ${problems.join('\n  ')}`)
  const byName = new Map(resources.map((r) => [r.name, r]))
  return Object.freeze({
    resources,
    get(name: string) {
      const r = byName.get(name)
      if (!r) throw new Error(`unknown resource ${name}`)
      return r
    },
    has: (name: string) => byName.has(name),
    columns: (r: ResourceDef) => Object.entries(r.fields).filter(([, d]) => isStored(d.kind)).map(([n, d]) => [columnOf(n, d), n] as [string, string]),
  })
}

export const catalogue = buildCatalogue()
