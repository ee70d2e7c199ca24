/**
 * The catalogue: every resource the service stores, checked once when it loads so that a
 * typo (an unknown relation target, an ordering on a missing field, a lookup the field kind
 * does not allow) fails at boot rather than on the first request.
 */
import { columnOf, fieldOfColumn, type ResourceDef } from '../define.js'
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
import { originatingCourtInformation } from './originating-court-information.js'
import { fjcIntegratedDatabase } from './fjc-integrated-database.js'
import { bankruptcyInformation } from './bankruptcy-information.js'
import { docketEntries } from './docket-entries.js'
import { archiveDocuments } from './archive-documents.js'
import { archiveQuery } from './archive-query.js'
import { attorneys } from './attorneys.js'
import { parties } from './parties.js'
import { attorneyRoles } from './attorney-roles.js'
import { partyTypes } from './party-types.js'
import { criminalCounts } from './criminal-counts.js'
import { criminalComplaints } from './criminal-complaints.js'
import { clusterRedirections } from './cluster-redirections.js'
import { tags } from './tags.js'
import { docketTags } from './docket-tags.js'
import { prayers } from './prayers.js'
import { alerts } from './alerts.js'
import { docketAlerts } from './docket-alerts.js'
import { archiveFetch } from './archive-fetch.js'
import { archiveUploads } from './archive-uploads.js'
import { visualizations } from './visualizations.js'
import { visualizationJson } from './visualization-json.js'
import { financialDisclosures } from './financial-disclosures.js'
import { agreements } from './agreements.js'
import { debts } from './debts.js'
import { gifts } from './gifts.js'
import { investments } from './investments.js'
import { nonInvestmentIncomes } from './non-investment-incomes.js'
import { disclosurePositions } from './disclosure-positions.js'
import { reimbursements } from './reimbursements.js'
import { spouseIncomes } from './spouse-incomes.js'
import { memberships } from './memberships.js'
import { citationTexts } from './citation-texts.js'
import { webhooks } from './webhooks.js'
import { webhookEvents } from './webhook-events.js'
import { citationCounts } from './citation-counts.js'
import { parentheticals } from './parentheticals.js'
import { unmatchedCitations } from './unmatched-citations.js'
import { courthouses } from './courthouses.js'
import { races } from './races.js'

/** In dependency order: a resource comes after those its foreign keys point at (where acyclic). */
export const RESOURCES: readonly ResourceDef[] = [
  users, courts, courthouses, races, schools, people, sources, educations, politicalAffiliations, abaRatings, positions, retentionEvents,
  tag, originatingCourtInformation, fjcIntegratedDatabase, dockets, bankruptcyInformation,
  docketEntries, archiveDocuments, archiveQuery, attorneys, parties, attorneyRoles, partyTypes, criminalCounts, criminalComplaints,
  clusters, clusterRedirections, citations, opinions, opinionsCited, citationTexts, citationCounts, parentheticals, unmatchedCitations, audio,
  tags, docketTags, prayers, alerts, docketAlerts, archiveFetch, archiveUploads, memberships, webhooks, webhookEvents,
  visualizations, visualizationJson,
  financialDisclosures, agreements, debts, gifts, investments, nonInvestmentIncomes, disclosurePositions, reimbursements, spouseIncomes,
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
  /** Resources that own their table (and so have a topic): all but views of another's table. */
  readonly stored: readonly ResourceDef[]
  /** The resource whose topic and table hold r's rows: r itself, or the one r is a view of. */
  storageOf(r: ResourceDef): ResourceDef
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
    for (const li of r.listIndexes ?? []) {
      for (const c of li.by) if (!cols.has(c)) where(`list index by ${c}, which is not a stored column`)
      for (const o of li.orders) {
        const kind = fieldOfColumn(r, o)?.[1].kind
        if (!r.orderings.includes(o) && o !== r.key) where(`list index order ${o} is not an ordering`)
        if (kind !== 'int' && kind !== 'date' && kind !== 'datetime') where(`list index order ${o} is a ${kind}, not an int, a date or a datetime`)
      }
    }
    if (r.search) {
      const { types, parent } = r.search
      if (types.length === 0) where('search lists no search type')
      if (parent) {
        const link = r.fields[parent.field]
        const target = byName.get(link?.target ?? '')
        if (link?.kind !== 'fk' && link?.kind !== 'm2m') where(`search parent ${parent.field} is not a foreign key or many-to-many field`)
        else if (target) {
          for (const type of parent.types) {
            if (!types.includes(type)) where(`search parent in type ${type}, which the resource does not feed`)
            if (!target.search?.types.includes(type)) where(`search parent ${target.name} has no documents of type ${type}`)
          }
        }
      }
    }
    for (const [name, fd] of Object.entries(r.filters)) {
      if (fd.related) {
        if (!byName.has(fd.related)) where(`filter ${name} relates to unknown resource ${fd.related}`)
        else if (fd.reverse && !['fk', 'm2m'].includes(byName.get(fd.related)!.fields[fd.reverse]?.kind ?? '')) where(`filter ${name}: ${fd.related}.${fd.reverse} is not a relation`)
        continue
      }
      if (fd.flag) continue
      const col = fd.field ?? name
      const field = Object.entries(r.fields).find(([n, d]) => columnOf(n, d) === col || n === col)
      if (!field || !isStored(field[1].kind)) { where(`filter ${name} on ${col}, which is not a stored column`); continue }
      // Text also compares in code-point order (document numbers: gt, lt...).
      const ordered = field[1].kind === 'string' ? ['gt', 'gte', 'lt', 'lte'] : []
      const allowed = new Set<string>([...KINDS[field[1].kind as keyof typeof KINDS].lookups, 'in', 'isnull', ...ordered])
      for (const l of fd.lookups ?? []) if (!allowed.has(l)) where(`filter ${name}: lookup ${l} not allowed on a ${field[1].kind}`)
    }
  }
  // A resource may read another's table (a view such as archive-query): the columns they share must agree.
  const byTable = new Map<string, ResourceDef>()
  for (const r of resources) {
    const first = byTable.get(r.table)
    if (!first) { byTable.set(r.table, r); continue }
    const theirs = new Map(Object.entries(first.fields).filter(([, d]) => isStored(d.kind)).map(([n, d]) => [columnOf(n, d), d]))
    for (const [n, d] of Object.entries(r.fields).filter(([, x]) => isStored(x.kind))) {
      const other = theirs.get(columnOf(n, d))
      if (!other) problems.push(`${r.name}: column ${columnOf(n, d)} is not a column of ${first.name}, whose table it shares`)
      else if (other.kind !== d.kind || !!other.nullable !== !!d.nullable || other.target !== d.target) problems.push(`${r.name}: column ${columnOf(n, d)} differs from ${first.name}'s, whose table it shares`)
    }
  }
  return problems
}

/**
 * What differs between the names resources declare for a fact kept outside the catalogue (write
 * hooks, overlays) and the implementations kept where they run: a declared name without an
 * implementation, or an implementation no resource declares.
 */
export function checkNamed(what: string, resources: readonly ResourceDef[], declared: (r: ResourceDef) => string | undefined, implemented: Iterable<string>): string[] {
  const problems: string[] = []
  const names = new Set(implemented)
  const used = new Set<string>()
  for (const r of resources) {
    const name = declared(r)
    if (name === undefined) continue
    used.add(name)
    if (!names.has(name)) problems.push(`${r.name}: ${what} ${name} has no implementation`)
  }
  for (const name of names) if (!used.has(name)) problems.push(`${what} ${name} is implemented but no resource declares it`)
  return problems
}

export function buildCatalogue(resources: readonly ResourceDef[] = RESOURCES): Catalogue {
  const problems = checkCatalogue(resources)
  if (problems.length) throw new Error(`catalogue is inconsistent:\n  ${problems.join('\n  ')}`)
  const byName = new Map(resources.map((r) => [r.name, r]))
  const owners = new Map<string, ResourceDef>()
  for (const r of resources) if (!owners.has(r.table)) owners.set(r.table, r)
  return Object.freeze({
    resources,
    stored: resources.filter((r) => owners.get(r.table) === r),
    storageOf: (r: ResourceDef) => owners.get(r.table) ?? r,
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
