/**
 * Search documents, denormalized from the tables the table sink keeps: for each search type,
 * which documents an entity change touches (`affected`), and how to build those documents
 * (`build`: one query per related table for the whole batch). A document not found (its entity
 * deleted) comes back as null and is removed from the index.
 *
 * Each built document has two faces: `doc`, the fields the index matches and ranks (keys are the
 * storage columns of domain/search/fields.ts), and `result`, the search API's result object for it
 * (the keys of the reference's v4 search results, without `meta`; nested children carry the text
 * their snippet is cut from as `_text`). The API serves `result` as stored, and the search-alert
 * percolator sends it, so both show the same thing.
 *   o   a cluster with its docket, court, citations, judges and its opinions' text
 *   r   a docket with its parties, attorneys and firms, and its archive documents folded in
 *   d   a docket with its parties, attorneys and firms
 *   rd  an archive document with its entry and its docket
 *   p   a judge with positions, schools, parties, ratings
 *   oa  an oral-argument recording with its docket and court
 * Keys of a document are the storage columns of domain/search/fields.ts.
 */
import { selectFinal, selectFinalIn, type Db } from '../../core/clickhouse.js'
import { sql, ident, type Sql } from '../../core/sql.js'
import { stripHtml } from '../../domain/citations/html.js'
import { searchTables, SEARCH_TYPES, type SearchType, type SearchDocument } from '../../domain/search/index.js'
import { OPINION_TYPE, POSITION_TYPE, HOW_SELECTED, TERMINATION_REASON, POLITICAL_PARTY, ABA_RATING, GENDER, RACE, NOMINATION_PROCESS, DOCUMENT_TYPE } from '../../schemas/catalogue/choices.js'
import { catalogue, type Catalogue } from '../../schemas/catalogue/index.js'
import { columnOf, type Choice } from '../../schemas/define.js'

export type Row = Record<string, unknown>
type Ids = number[]

export interface Built {
  doc: SearchDocument
  result: Row
  /** the entity's creation time (the result's meta.date_created) */
  created: string | null
}

export interface DocumentSource {
  /**
   * Documents of `type` an upsert or delete of `resource` touches. For a resource with a parent link (PARENTS),
   * `previous` are the parents its rows were last indexed into (parents.ts), touched as well.
   * Given `ifIndexed`, the documents of a row many documents show (a court, a judge, a school) are
   * not filtered by the index here but added to it, all of them, for the document's owner to
   * filter (document-keys.ts): the index as this caller sees it may miss a first build in flight.
   */
  affected(type: SearchType, resource: string, rows: readonly Row[], previous?: readonly number[], ifIndexed?: Set<number>): Promise<Ids>
  /** Of these documents, those in the index (the owner's decision on `ifIndexed` candidates). */
  indexed(type: SearchType, ids: Ids): Promise<Ids>
  /** The documents (null: gone) for these ids. */
  build(type: SearchType, ids: Ids): Promise<Map<number, Built | null>>
}

const num = (v: unknown) => (v === null || v === undefined || v === '' ? null : Number(v))
/** A whole number held as text (a bankruptcy chapter, free text in the archive), or null when it is not one. */
const whole = (v: unknown) => { const n = num(v); return n !== null && Number.isInteger(n) ? n : null }
const uniq = (xs: (number | null)[]) => [...new Set(xs.filter((x): x is number => x !== null && Number.isFinite(x)))]
const text = (v: unknown) => (typeof v === 'string' && v ? v : '')
const orNull = (v: unknown) => (v === undefined || v === '' ? null : v)
/** A date as results show it: YYYY-MM-DD, or null. */
const day = (v: unknown) => (typeof v === 'string' && v ? v.slice(0, 10) : null)
const ids = (v: unknown) => (Array.isArray(v) ? v.map(Number) : [])
const one = (v: unknown) => uniq([num(v)])

/** Which resources feed which search types: every table a type's builder reads (ResourceDef.search). */
export function searchSourcesOf(cat: Catalogue): Record<SearchType, string[]> {
  const out = Object.fromEntries(Object.keys(SEARCH_TYPES).map((type) => [type, [] as string[]])) as Record<SearchType, string[]>
  for (const r of cat.resources) for (const type of r.search?.types ?? []) out[type].push(r.name)
  return out
}

/**
 * A resource whose rows belong to another entity (an opinion to its cluster, a party to its
 * dockets) and go into the documents built from it: the parent resource, the types whose
 * documents hold the row, and the parents' ids as the row names them. A row can move (an opinion
 * to another cluster, a party off a docket), so the indexer also remembers which parents each row
 * was last indexed under (parents.ts) and rebuilds their documents too.
 */
export interface ParentLink { parent: string; types: readonly SearchType[]; of(row: Row): number[] }

/** The parent links the catalogue declares (ResourceDef.search.parent), by resource. */
export function parentsOf(cat: Catalogue): Record<string, ParentLink> {
  const out: Record<string, ParentLink> = {}
  for (const r of cat.resources) {
    const link = r.search?.parent
    if (!link) continue
    const column = columnOf(link.field, r.fields[link.field])
    out[r.name] = { parent: r.fields[link.field].target!, types: link.types, of: (row) => (Array.isArray(row[column]) ? uniq(ids(row[column])) : one(row[column])) }
  }
  return out
}

const display = (list: readonly Choice[], v: unknown) => list.find((c) => c.value === v)?.display_name ?? (v === null || v === undefined ? null : String(v))
/** '010combined' → 'combined-opinion': the opinion kinds as search results name them. */
const opinionKind = (v: unknown) => {
  const name = display(OPINION_TYPE, v)
  if (!name) return null
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')
  return /opinion$|^dissent$|^addendum$|^remittitur$|^rehearing$/.test(slug) ? slug : `${slug}`
}
/**
 * The opinion columns a search document uses. Of its texts only the one search reads comes back:
 * the richest markup there is (`markup`, the first field with a non-blank character), else the
 * plain text. An opinion's row carries several texts, and reading them all was most of a chunk's
 * build time (74 MB of JSON for 5,000 clusters).
 */
const OPINION_COLUMNS = sql`id, cluster_id, author_id, author_str, joined_by_ids, per_curiam, type, sha1, download_url, local_path, ordering_key, date_created,
  multiIf(match(html_partner_a, '\\S'), html_partner_a, match(html_partner_b, '\\S'), html_partner_b, match(xml_partner_c, '\\S'), xml_partner_c,
    match(html_anon_2020, '\\S'), html_anon_2020, match(html, '\\S'), html, '') AS markup,
  if(markup = '', plain_text, '') AS plain_text`
/** An opinion's text for search (a row of OPINION_COLUMNS): the linked markup, its own markup, or its plain text, without markup. */
function opinionText(o: Row, linked?: string): string {
  for (const f of [linked, o.markup]) if (typeof f === 'string' && /\S/.test(f)) return stripHtml(f).text
  return text(o.plain_text)
}
const name = (p: Row | undefined) => (p ? [p.name_first, p.name_middle, p.name_last, p.name_suffix].filter(Boolean).join(' ') : '')
const slugOf = (r: Row | undefined, fallback = 'case') => text(r?.slug) || fallback
const citeText = (x: Row) => `${String(x.volume)} ${String(x.reporter)} ${String(x.page)}`

/** What a lookup of the documents a change touches reads with (createDocumentSource). */
interface TouchedLookups {
  rows: readonly Row[]
  /** the changed rows' ids, as numbers, and as strings (courts) */
  ids(): Ids
  keys(): string[]
  /** a table of the sink's database */
  t(table: string): Sql
  /** `out` of the rows of `table` whose `column` is in `values` */
  via(table: string, column: string, values: readonly (number | string)[], out?: string): Promise<Ids>
  union(...parts: Promise<Ids>[]): Promise<Ids>
  /** documents of the type already in the index among `candidates` (see createDocumentSource) */
  indexedAmong(keys: readonly (number | string)[], candidates: (k: Sql) => Sql): Promise<Ids>
}

const docketsOfCourts = (q: TouchedLookups, k: Sql) => sql`SELECT id FROM ${q.t('dockets')} WHERE court_id IN ${k}`
const docketsOfJudges = (q: TouchedLookups, k: Sql) => sql`SELECT id FROM ${q.t('dockets')} WHERE assigned_to_id IN ${k} OR referred_to_id IN ${k}`

/**
 * For each `type:resource` the catalogue declares (ResourceDef.search) other than through a parent
 * link: the documents of the type a changed row of the resource touches.
 */
const TOUCHED: Readonly<Record<string, (q: TouchedLookups) => Promise<Ids> | Ids>> = {
  'o:clusters': (q) => q.ids(),
  'o:citation-counts': (q) => q.ids(),
  'o:dockets': (q) => q.via('clusters', 'docket_id', q.ids()),
  'o:citation-texts': (q) => q.via('opinions', 'id', q.ids(), 'cluster_id'),
  'o:people': (q) => q.indexedAmong(q.ids(), (k) => sql`SELECT cluster_id FROM ${q.t('opinions')} WHERE author_id IN ${k} UNION ALL SELECT id FROM ${q.t('clusters')} WHERE arrayExists((x) -> x IN ${k}, panel_ids)`),
  'o:courts': (q) => q.indexedAmong(q.keys(), (k) => sql`SELECT id FROM ${q.t('clusters')} WHERE docket_id IN (${docketsOfCourts(q, k)})`),
  'r:dockets': (q) => q.ids(),
  'd:dockets': (q) => q.ids(),
  'r:people': (q) => q.indexedAmong(q.ids(), (k) => docketsOfJudges(q, k)),
  'd:people': (q) => q.indexedAmong(q.ids(), (k) => docketsOfJudges(q, k)),
  'r:courts': (q) => q.indexedAmong(q.keys(), (k) => docketsOfCourts(q, k)),
  'd:courts': (q) => q.indexedAmong(q.keys(), (k) => docketsOfCourts(q, k)),
  'rd:archive-documents': (q) => q.ids(),
  'rd:docket-entries': (q) => q.via('archive_documents', 'docket_entry_id', q.ids()),
  'rd:dockets': (q) => q.via('archive_documents', 'docket_id', q.ids()),
  'rd:people': (q) => q.indexedAmong(q.ids(), (k) => sql`SELECT id FROM ${q.t('archive_documents')} WHERE docket_id IN (${docketsOfJudges(q, k)})`),
  'rd:courts': (q) => q.indexedAmong(q.keys(), (k) => sql`SELECT id FROM ${q.t('archive_documents')} WHERE docket_id IN (${docketsOfCourts(q, k)})`),
  // a judge's own document, the one an alias belongs to, and the judges whose positions name this
  // one as supervisor, predecessor or appointer (by the appointer's position)
  'p:people': async (q) => {
    const own = q.ids()
    const aliasOf = uniq(q.rows.map((r) => num(r.is_alias_of_id)))
    const theirPositions = await q.via('positions', 'person_id', own)
    return q.union(Promise.resolve([...own, ...aliasOf]), q.via('positions', 'supervisor_id', own, 'person_id'), q.via('positions', 'predecessor_id', own, 'person_id'),
      q.via('positions', 'appointer_id', theirPositions, 'person_id'))
  },
  'p:schools': (q) => q.indexedAmong(q.ids(), (k) => sql`SELECT person_id FROM ${q.t('educations')} WHERE school_id IN ${k}`),
  'p:courts': (q) => q.indexedAmong(q.keys(), (k) => sql`SELECT person_id FROM ${q.t('positions')} WHERE court_id IN ${k}`),
  'oa:audio': (q) => q.ids(),
  'oa:dockets': (q) => q.via('audio', 'docket_id', q.ids()),
  'oa:courts': (q) => q.indexedAmong(q.keys(), (k) => sql`SELECT id FROM ${q.t('audio')} WHERE docket_id IN (${docketsOfCourts(q, k)})`),
}

/**
 * What differs between the search sources the catalogue declares and what is implemented here: a
 * declared type of a resource that neither its parent link nor TOUCHED covers, or a TOUCHED entry
 * no resource declares (or that its parent link already covers).
 */
export function checkSearchSources(cat: Catalogue, touched: Iterable<string> = Object.keys(TOUCHED)): string[] {
  const problems: string[] = []
  const implemented = new Set(touched)
  const needed = new Set<string>()
  for (const r of cat.resources) {
    for (const type of r.search?.types ?? []) {
      if (r.search?.parent?.types.includes(type)) continue
      const key = `${type}:${r.name}`
      needed.add(key)
      if (!implemented.has(key)) problems.push(`${r.name}: search type ${type} has no lookup of the documents a change touches`)
    }
  }
  for (const key of implemented) if (!needed.has(key)) problems.push(`search lookup ${key} is implemented but no resource declares it`)
  return problems
}

function checked(cat: Catalogue): Catalogue {
  const problems = checkSearchSources(cat)
  if (problems.length) throw new Error(`search sources do not match the catalogue:\n  ${problems.join('\n  ')}`)
  return cat
}

// checked against the catalogue when this module loads
const declaring = checked(catalogue)
export const SEARCH_SOURCES: Readonly<Record<SearchType, readonly string[]>> = searchSourcesOf(declaring)
export const PARENTS: Readonly<Record<string, ParentLink>> = parentsOf(declaring)

export function createDocumentSource(db: Db): DocumentSource {
  const t = (table: string) => sql`${ident(db.database)}.${ident(table)}`
  /** Rows of a table (FINAL) whose column is in `values`; every table here is ordered by `id`. */
  const where = (table: string, column: string, values: readonly unknown[], cols: Sql = sql`*`): Promise<Row[]> => {
    if (!values.length) return Promise.resolve([])
    const type = values.every((v) => typeof v === 'number') ? 'Int64' : 'String'
    return db.withKeys<Row>(values, type, (k) => selectFinalIn(t(table), cols, column, k, 'id'))
  }
  const byId = (rows: Row[]) => new Map(rows.map((r) => [Number(r.id), r]))
  const groupBy = (rows: Row[], key: string) => {
    const m = new Map<number, Row[]>()
    for (const r of rows) { const k = Number(r[key]); const list = m.get(k); if (list) list.push(r); else m.set(k, [r]) }
    return m
  }

  async function courtsOf(list: (string | null | undefined)[]): Promise<Map<string, Row>> {
    const keys = [...new Set(list.filter((x): x is string => !!x))]
    return new Map((await where('courts', 'id', keys)).map((c) => [String(c.id), c]))
  }

  /** Parties, attorneys and firms of dockets. */
  async function peopleOfDockets(dockets: Ids) {
    const [parties, attorneys] = await Promise.all([
      db.withKeys<Row>(dockets, 'Int64', (k) => selectFinal(t('parties'), sql`id, name, docket_ids`, sql`arrayExists((d) -> d IN ${k}, docket_ids)`, 'id')),
      db.withKeys<Row>(dockets, 'Int64', (k) => selectFinal(t('attorneys'), sql`id, name, contact_raw, docket_ids`, sql`arrayExists((d) -> d IN ${k}, docket_ids)`, 'id')),
    ])
    // by docket, once: filtering every row per docket was quadratic in a chunk (5,000 dockets times
    // their parties: 40 % of the indexer's CPU, and falling to ~200 documents/s, at 1M dockets)
    const byDocket = (rows: Row[]) => {
      const m = new Map<number, Row[]>()
      for (const r of rows) for (const d of new Set(ids(r.docket_ids))) { const list = m.get(d); if (list) list.push(r); else m.set(d, [r]) }
      return m
    }
    const partiesOf = byDocket(parties)
    const attorneysOf = byDocket(attorneys)
    const firmOf = (a: Row) => text(a.contact_raw).split('\n')[0]?.trim() ?? ''
    return (d: number) => {
      const ps = partiesOf.get(d) ?? []
      const as = attorneysOf.get(d) ?? []
      return { party: ps.map((p) => text(p.name)), party_id: ps.map((p) => Number(p.id)), attorney: as.map((a) => text(a.name)), attorney_id: as.map((a) => Number(a.id)), firm: as.map(firmOf).filter(Boolean) }
    }
  }

  /** A docket's index fields and its result keys (types r, d, and rd's docket half). */
  async function dockets(rows: Row[]): Promise<Map<number, { doc: Row; result: Row; row: Row }>> {
    const [courts, judges, bankruptcy, people] = await Promise.all([
      courtsOf(rows.map((d) => d.court_id as string)),
      where('people', 'id', uniq(rows.flatMap((d) => [num(d.assigned_to_id), num(d.referred_to_id)]))).then(byId),
      where('bankruptcy_information', 'docket_id', rows.map((d) => Number(d.id))).then((r) => groupBy(r, 'docket_id')),
      peopleOfDockets(rows.map((d) => Number(d.id))),
    ])
    return new Map(rows.map((d) => {
      const court = courts.get(String(d.court_id))
      const id = Number(d.id)
      const who = people(id)
      const assignedTo = name(judges.get(Number(d.assigned_to_id))) || text(d.assigned_to_str)
      const referredTo = name(judges.get(Number(d.referred_to_id))) || text(d.referred_to_str)
      const firms = [...new Set(who.firm)]
      const bk = bankruptcy.get(id)?.[0]
      const doc = {
        case_name: d.case_name, case_name_full: d.case_name_full, docket_number: d.docket_number, court: court?.full_name, court_id: d.court_id,
        court_citation_string: court?.citation_string, suit_nature: d.nature_of_suit, cause: d.cause, jury_demand: d.jury_demand,
        jurisdiction_type: d.jurisdiction_type, assigned_to: assignedTo, referred_to: referredTo,
        party: who.party, attorney: who.attorney, firm: firms,
        records_case_id: d.records_case_id, chapter: whole(bk?.chapter), docket_id: id,
        assigned_to_id: num(d.assigned_to_id), referred_to_id: num(d.referred_to_id),
        date_filed: day(d.date_filed), date_argued: day(d.date_argued), date_terminated: day(d.date_terminated),
      }
      const result: Row = {
        assignedTo: assignedTo || null, assigned_to_id: num(d.assigned_to_id), attorney: who.attorney, attorney_id: who.attorney_id,
        caseName: text(d.case_name), case_name_full: text(d.case_name_full), cause: text(d.cause), chapter: whole(bk?.chapter),
        court: text(court?.full_name), court_citation_string: text(court?.citation_string), court_id: text(d.court_id),
        dateArgued: day(d.date_argued), dateFiled: day(d.date_filed), dateTerminated: day(d.date_terminated),
        docketNumber: text(d.docket_number), docket_absolute_url: `/docket/${id}/${slugOf(d)}/`, docket_id: id,
        firm: firms, firm_id: firms.map((_, i) => i + 1).filter(() => false),
        jurisdictionType: text(d.jurisdiction_type), juryDemand: text(d.jury_demand), records_case_id: orNull(d.records_case_id),
        party: who.party, party_id: who.party_id, referredTo: referredTo || null, referred_to_id: num(d.referred_to_id),
        suitNature: text(d.nature_of_suit), trustee_str: orNull(bk?.trustee_str),
      }
      return [id, { doc, result, row: d }]
    }))
  }

  /** An archive document's index fields and its result keys (types r and rd). */
  async function documents(rows: Row[]): Promise<Map<number, { doc: Row; result: Row }>> {
    const [entries, docketSlugs] = await Promise.all([
      where('docket_entries', 'id', uniq(rows.map((d) => num(d.docket_entry_id)))).then(byId),
      where('dockets', 'id', uniq(rows.map((d) => num(d.docket_id))), sql`id, slug`).then(byId),
    ])
    return new Map(rows.map((d) => {
      const e = entries.get(Number(d.docket_entry_id))
      const id = Number(d.id)
      const doc = {
        description: e?.description ?? '', short_description: d.description, text: d.plain_text, document_number: d.document_number,
        attachment_number: num(d.attachment_number), entry_number: num(e?.entry_number), document_type: num(d.document_type),
        page_count: num(d.page_count), is_available: d.is_available ?? false, entry_date_filed: day(e?.date_filed),
      }
      const path = [num(d.docket_id), d.document_number || null, num(d.attachment_number)].filter((x) => x !== null).join('/')
      const result: Row = {
        id, docket_entry_id: num(d.docket_entry_id), description: text(e?.description), entry_number: num(e?.entry_number),
        entry_date_filed: day(e?.date_filed), short_description: text(d.description), document_type: display(DOCUMENT_TYPE, num(d.document_type)),
        document_number: orNull(d.document_number), attachment_number: num(d.attachment_number), is_available: Boolean(d.is_available),
        page_count: num(d.page_count), filepath_local: orNull(d.filepath_local),
        absolute_url: `/docket/${path}/${slugOf(docketSlugs.get(Number(d.docket_id)))}/`, records_doc_id: orNull(d.records_doc_id),
        cites: [], docket_id: num(d.docket_id), _text: text(d.plain_text), _created: d.date_created ?? null,
      }
      return [id, { doc, result }]
    }))
  }

  const builders: Record<SearchType, (ids: Ids) => Promise<Map<number, Built | null>>> = {
    async o(list) {
      // independent reads at once (each is a round trip, and the server has cores to spare)
      const [clusters, cites, opinions, counts] = await Promise.all([
        where('clusters', 'id', list),
        where('citations', 'cluster_id', list).then((r) => groupBy(r, 'cluster_id')),
        where('opinions', 'cluster_id', list, OPINION_COLUMNS).then((r) => groupBy(r, 'cluster_id')),
        where('citation_counts', 'id', list).then(byId),
      ])
      const allOpinions = [...opinions.values()].flat()
      const [docketRows, linked, judges] = await Promise.all([
        where('dockets', 'id', uniq(clusters.map((c) => num(c.docket_id)))).then(byId),
        where('citation_texts', 'id', allOpinions.map((o) => Number(o.id)), sql`id, html_with_citations, cited_clusters_ids`).then(byId),
        where('people', 'id', uniq([...allOpinions.map((o) => num(o.author_id)), ...clusters.flatMap((c) => ids(c.panel_ids))])).then(byId),
      ])
      const courts = await courtsOf([...docketRows.values()].map((d) => d.court_id as string))
      const out = new Map<number, Built | null>(list.map((id) => [id, null]))
      for (const c of clusters) {
        const id = Number(c.id)
        const d = docketRows.get(Number(c.docket_id))
        const court = courts.get(String(d?.court_id))
        const cs = cites.get(id) ?? []
        const ops = (opinions.get(id) ?? []).sort((a, b) => Number(a.ordering_key ?? 0) - Number(b.ordering_key ?? 0) || Number(a.id) - Number(b.id))
        const citation = cs.map(citeText)
        const neutral = cs.filter((x) => Number(x.type) === 8).map(citeText)
        const lexis = cs.filter((x) => Number(x.type) === 6).map(citeText)
        const judge = [c.judges, ...ops.map((o) => name(judges.get(Number(o.author_id))) || o.author_str)].filter(Boolean).join(', ')
        const texts = ops.map((o) => opinionText(o, linked.get(Number(o.id))?.html_with_citations as string | undefined))
        const citeCount = Math.max(Number(c.citation_count ?? 0), Number(counts.get(id)?.citation_count ?? 0))
        const doc: SearchDocument = {
          id, cluster_id: id, docket_id: num(c.docket_id), case_name: c.case_name, case_name_full: c.case_name_full, docket_number: d?.docket_number,
          citation, neutral_cite: neutral, lexis_cite: lexis, judge,
          suit_nature: c.nature_of_suit, attorney: c.attorneys, posture: c.posture, procedural_history: c.procedural_history, syllabus: c.syllabus,
          text: texts.join('\n\n'),
          court: court?.full_name, court_citation_string: court?.citation_string, court_id: d?.court_id, court_jurisdiction: court?.jurisdiction,
          status: c.precedential_status, source: c.source, scdb_id: c.scdb_id, cite_count: citeCount,
          panel_ids: ids(c.panel_ids), date_filed: day(c.date_filed),
          date_argued: day(d?.date_argued), date_reargued: day(d?.date_reargued), date_reargument_denied: day(d?.date_reargument_denied),
        }
        const result: Row = {
          absolute_url: `/opinion/${id}/${slugOf(c)}/`, attorney: text(c.attorneys), caseName: text(c.case_name), caseNameFull: text(c.case_name_full),
          citation, citeCount, cluster_id: id, court: text(court?.full_name), court_citation_string: text(court?.citation_string),
          court_id: text(d?.court_id), court_jurisdiction: display([], court?.jurisdiction), dateArgued: day(d?.date_argued), dateFiled: day(c.date_filed),
          dateReargued: day(d?.date_reargued), dateReargumentDenied: day(d?.date_reargument_denied), docketNumber: text(d?.docket_number),
          docket_id: num(c.docket_id), judge, lexisCite: lexis[0] ?? '', neutralCite: neutral[0] ?? '',
          non_participating_judge_ids: ids(c.non_participating_judges_ids), panel_ids: ids(c.panel_ids),
          panel_names: ids(c.panel_ids).map((p) => name(judges.get(p))).filter(Boolean), posture: text(c.posture),
          procedural_history: text(c.procedural_history), scdb_id: text(c.scdb_id), sibling_ids: ops.map((o) => Number(o.id)),
          source: text(c.source), status: text(c.precedential_status), suitNature: text(c.nature_of_suit), syllabus: text(c.syllabus),
          opinions: ops.map((o, i) => ({
            author_id: num(o.author_id), cites: ids(linked.get(Number(o.id))?.cited_clusters_ids), download_url: orNull(o.download_url),
            id: Number(o.id), joined_by_ids: ids(o.joined_by_ids), local_path: orNull(o.local_path), ordering_key: num(o.ordering_key),
            per_curiam: Boolean(o.per_curiam), sha1: text(o.sha1), type: opinionKind(o.type), _text: texts[i], _created: o.date_created ?? null,
          })),
        }
        out.set(id, { doc, result, created: (c.date_created as string) ?? null })
      }
      return out
    },
    async d(list) {
      const rows = await where('dockets', 'id', list)
      const built = await dockets(rows)
      return new Map(list.map((id) => {
        const b = built.get(id)
        return [id, b ? { doc: { id, ...b.doc }, result: b.result, created: (b.row.date_created as string) ?? null } : null]
      }))
    },
    async r(list) {
      const [built, [docs, docParts]] = await Promise.all([
        where('dockets', 'id', list).then(dockets),
        where('archive_documents', 'docket_id', list).then(async (docs) => [docs, await documents(docs)] as const),
      ])
      const byDocket = groupBy(docs, 'docket_id')
      return new Map(list.map((id) => {
        const b = built.get(id)
        if (!b) return [id, null]
        const parts = (byDocket.get(id) ?? []).sort((x, y) => String(y.date_created ?? '').localeCompare(String(x.date_created ?? '')) || Number(y.id) - Number(x.id)).map((x) => docParts.get(Number(x.id))!)
        const many = (k: string) => parts.map((x) => x.doc[k]).filter((v) => v !== null && v !== undefined && v !== '')
        const doc: SearchDocument = { id, ...b.doc, description: many('description'), short_description: many('short_description'), text: many('text'),
          document_number: many('document_number'), attachment_number: many('attachment_number'), entry_number: many('entry_number'),
          document_type: many('document_type'), page_count: many('page_count'), is_available: many('is_available'), entry_date_filed: many('entry_date_filed') }
        // every document rides along; the API picks the ones matching the query (at most three)
        return [id, { doc, result: { ...b.result, archive_documents: parts.map((x) => x.result) }, created: (b.row.date_created as string) ?? null }]
      }))
    },
    async rd(list) {
      const docs = await where('archive_documents', 'id', list)
      const docById = byId(docs)
      const [docParts, built] = await Promise.all([documents(docs), where('dockets', 'id', uniq(docs.map((d) => num(d.docket_id)))).then(dockets)])
      return new Map(list.map((id) => {
        const d = docById.get(id)
        if (!d) return [id, null]
        const b = built.get(Number(d.docket_id))
        const part = docParts.get(id)!
        return [id, { doc: { id, ...(b?.doc ?? {}), ...part.doc }, result: { ...part.result }, created: (d.date_created as string) ?? null }]
      }))
    },
    async p(list) {
      const [people, positions, educations, parties, ratings, aliases] = await Promise.all([
        where('people', 'id', list).then(byId),
        where('positions', 'person_id', list).then((r) => groupBy(r, 'person_id')),
        where('educations', 'person_id', list).then((r) => groupBy(r, 'person_id')),
        where('political_affiliations', 'person_id', list).then((r) => groupBy(r, 'person_id')),
        where('aba_ratings', 'person_id', list).then((r) => groupBy(r, 'person_id')),
        where('people', 'is_alias_of_id', list).then((r) => groupBy(r, 'is_alias_of_id')),
      ])
      const allPositions = [...positions.values()].flat()
      const [schools, courts, related] = await Promise.all([
        where('schools', 'id', uniq([...educations.values()].flat().map((e) => num(e.school_id)))).then(byId),
        courtsOf(allPositions.map((p) => p.court_id as string)),
        where('positions', 'id', uniq(allPositions.flatMap((p) => [num(p.appointer_id)]))).then(byId),
      ])
      const relatedPeople = byId(await where('people', 'id', uniq([...[...related.values()].map((a) => num(a.person_id)), ...allPositions.flatMap((p) => [num(p.supervisor_id), num(p.predecessor_id)])])))
      const appointerOf = (p: Row) => name(relatedPeople.get(Number(related.get(Number(p.appointer_id))?.person_id)))
      return new Map(list.map((id) => {
        const p = people.get(id)
        if (!p) return [id, null]
        const pos = positions.get(id) ?? []
        const schoolNames = (educations.get(id) ?? []).map((e) => text(schools.get(Number(e.school_id))?.name)).filter(Boolean)
        const affiliations = parties.get(id) ?? []
        const alias = (aliases.get(id) ?? []).map(name)
        const doc: SearchDocument = {
          id, name: name(p), name_reverse: [p.name_last, [p.name_first, p.name_middle].filter(Boolean).join(' ')].filter(Boolean).join(', '), alias: alias.join(', '), dob_city: p.dob_city, dob_state: p.dob_state, dob_state_id: p.dob_state,
          school: schoolNames.join(', '), appointer: pos.map(appointerOf).filter(Boolean).join(', '),
          court: pos.map((x) => text(courts.get(String(x.court_id))?.full_name)).filter(Boolean).join(', '),
          court_exact: pos.map((x) => x.court_id).filter(Boolean), court_id: pos.map((x) => x.court_id).filter(Boolean),
          political_affiliation: affiliations.map((x) => x.political_party).filter(Boolean),
          selection_method: pos.map((x) => x.how_selected).filter(Boolean), gender: p.gender, religion: p.religion,
          races: (p.race as string[] | undefined) ?? [], aba_rating: (ratings.get(id) ?? []).map((x) => x.rating).filter(Boolean),
          job_title: pos.map((x) => text(x.job_title)).filter(Boolean).join(', '), fjc_id: num(p.fjc_id), dob: day(p.date_dob), dod: day(p.date_dod),
        }
        const result: Row = {
          absolute_url: `/person/${id}/${slugOf(p, 'judge')}/`, id, name: name(p), gender: display(GENDER, p.gender), religion: text(p.religion),
          alias, alias_ids: (aliases.get(id) ?? []).map((a) => Number(a.id)),
          races: ((p.race as string[] | undefined) ?? []).map((r) => display(RACE, r)),
          political_affiliation: affiliations.map((x) => display(POLITICAL_PARTY, x.political_party)), political_affiliation_id: affiliations.map((x) => text(x.political_party)),
          fjc_id: num(p.fjc_id), dob: day(p.date_dob), dod: day(p.date_dod), dob_city: text(p.dob_city), dob_state: text(p.dob_state), dob_state_id: text(p.dob_state),
          date_granularity_dob: text(p.date_granularity_dob), date_granularity_dod: text(p.date_granularity_dod),
          aba_rating: (ratings.get(id) ?? []).map((x) => display(ABA_RATING, x.rating)), school: schoolNames,
          positions: pos.map((x) => {
            const court = courts.get(String(x.court_id))
            return {
              court: text(court?.short_name), court_full_name: text(court?.full_name), court_exact: text(x.court_id), court_citation_string: text(court?.citation_string),
              organization_name: orNull(x.organization_name), job_title: orNull(x.job_title), position_type: display(POSITION_TYPE, orNull(x.position_type)),
              appointer: appointerOf(x) || null, supervisor: name(relatedPeople.get(Number(x.supervisor_id))) || null, predecessor: name(relatedPeople.get(Number(x.predecessor_id))) || null,
              date_nominated: day(x.date_nominated), date_elected: day(x.date_elected), date_recess_appointment: day(x.date_recess_appointment),
              date_referred_to_judicial_committee: day(x.date_referred_to_judicial_committee), date_judicial_committee_action: day(x.date_judicial_committee_action),
              judicial_committee_action: orNull(x.judicial_committee_action), date_hearing: day(x.date_hearing), date_confirmation: day(x.date_confirmation),
              date_start: day(x.date_start), date_granularity_start: text(x.date_granularity_start), date_retirement: day(x.date_retirement),
              date_termination: day(x.date_termination), date_granularity_termination: text(x.date_granularity_termination),
              nomination_process: display(NOMINATION_PROCESS, orNull(x.nomination_process)), selection_method: display(HOW_SELECTED, orNull(x.how_selected)),
              selection_method_id: orNull(x.how_selected), termination_reason: display(TERMINATION_REASON, orNull(x.termination_reason)), _created: x.date_created ?? null,
            }
          }),
        }
        return [id, { doc, result, created: (p.date_created as string) ?? null }]
      }))
    },
    async oa(list) {
      const audio = await where('audio', 'id', list)
      const audioById = byId(audio)
      const docketRows = byId(await where('dockets', 'id', uniq(audio.map((a) => num(a.docket_id)))))
      const courts = await courtsOf([...docketRows.values()].map((d) => d.court_id as string))
      return new Map(list.map((id) => {
        const a = audioById.get(id)
        if (!a) return [id, null]
        const d = docketRows.get(Number(a.docket_id))
        const court = courts.get(String(d?.court_id))
        const doc: SearchDocument = {
          id, case_name: a.case_name, case_name_full: a.case_name_full, docket_number: d?.docket_number, judge: a.judges, court: court?.full_name,
          court_citation_string: court?.citation_string, text: a.stt_transcript, court_id: d?.court_id, source: a.source, docket_id: num(a.docket_id),
          duration: num(a.duration), date_argued: day(d?.date_argued), date_reargued: day(d?.date_reargued), date_reargument_denied: day(d?.date_reargument_denied),
        }
        const result: Row = {
          absolute_url: `/audio/${id}/${slugOf(a)}/`, caseName: text(a.case_name), case_name_full: text(a.case_name_full), court: text(court?.full_name),
          court_id: text(d?.court_id), court_citation_string: text(court?.citation_string), docket_id: num(a.docket_id), dateArgued: day(d?.date_argued),
          dateReargued: day(d?.date_reargued), dateReargumentDenied: day(d?.date_reargument_denied), docketNumber: text(d?.docket_number),
          duration: num(a.duration), download_url: orNull(a.download_url), id, judge: text(a.judges), local_path: orNull(a.local_path_mp3),
          records_case_id: orNull(d?.records_case_id), panel_ids: ids(a.panel_ids), source: text(a.source), _text: text(a.stt_transcript),
        }
        return [id, { doc, result, created: (a.date_created as string) ?? null }]
      }))
    },
  }

  /**
   * `out` of the rows of a table (FINAL) whose `column` is in `values`. The output is named apart
   * from every column: an alias that shadows a column replaces it in the WHERE clause too.
   */
  const via = async (table: string, column: string, values: readonly (number | string)[], out = 'id'): Promise<Ids> =>
    values.length ? uniq((await where(table, column, values, sql`${ident(out)} AS via_out`)).map((r) => num(r.via_out))) : []
  const union = async (...parts: Promise<Ids>[]) => uniq((await Promise.all(parts)).flat())
  /**
   * Documents already in the index among `candidates` (a query of ids, given the keys). For rows
   * many documents show (a court, a judge, a school): a document not yet indexed needs no rebuild,
   * since its first build reads the row as it is then, and in a catch-up the first court would
   * otherwise build every document at once. Candidates are read without FINAL: an old version
   * adds a document to rebuild, never loses one.
   */
  const indexedAmong = async (type: SearchType, keys: readonly (number | string)[], candidates: (k: Sql) => Sql): Promise<Ids> => {
    if (!keys.length) return []
    const kind = keys.every((v) => typeof v === 'number') ? 'Int64' : 'String'
    const rows = await db.withKeys<Row>(keys, kind, (k) => sql`SELECT DISTINCT id FROM ${t(searchTables(type).docs)} WHERE id IN (${candidates(k)})`)
    return uniq(rows.map((r) => num(r.id)))
  }
  /** Every candidate, for the owner to filter (affected's `ifIndexed`); the candidates' one column may have any name. */
  const allOf = async (keys: readonly (number | string)[], candidates: (k: Sql) => Sql, into: Set<number>): Promise<Ids> => {
    if (!keys.length) return []
    const kind = keys.every((v) => typeof v === 'number') ? 'Int64' : 'String'
    const rows = await db.withKeys<Row>(keys, kind, (k) => sql`SELECT DISTINCT * FROM (${candidates(k)})`)
    for (const r of rows) { const id = num(Object.values(r)[0]); if (id !== null && Number.isFinite(id)) into.add(id) }
    return []
  }
  /** For each (type, resource): the document ids a changed row of the resource touches. */
  async function affected(type: SearchType, resource: string, rows: readonly Row[], previous: readonly number[] = [], ifIndexed?: Set<number>): Promise<Ids> {
    const parent = PARENTS[resource]
    if (parent?.types.includes(type)) {
      const parents = uniq([...rows.flatMap(parent.of), ...previous])
      return type === 'rd' ? via('archive_documents', 'docket_id', parents) : parents
    }
    const touched = TOUCHED[`${type}:${resource}`]
    if (!touched) return []
    return touched({
      t, via, union, rows,
      ids: () => uniq(rows.map((r) => num(r.id))),
      keys: () => [...new Set(rows.map((r) => String(r.id)))],
      indexedAmong: (keys, candidates) => (ifIndexed ? allOf(keys, candidates, ifIndexed) : indexedAmong(type, keys, candidates)),
    })
  }

  const indexed = async (type: SearchType, list: Ids): Promise<Ids> => list.length
    ? uniq((await db.withKeys<Row>(list, 'Int64', (k) => sql`SELECT DISTINCT id FROM ${t(searchTables(type).docs)} WHERE id IN ${k}`)).map((r) => num(r.id)))
    : []

  return { affected, indexed, build: (type, ids) => builders[type](ids) }
}
