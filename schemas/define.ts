/**
 * The vocabulary of the catalogue. A resource is plain data: fields (kind, nullability,
 * relation target), filters (lookups per field, related filters by resource name),
 * orderings and its table, and by name the code that runs for it elsewhere (write hooks,
 * overlays, search sources). `defineResource` only gives type inference; checks run in
 * `catalogue/index.ts` when the catalogue loads, and where each named implementation lives.
 */
import { LOOKUPS, type Kind, type Lookup } from './kinds.js'

export interface Choice { value: string | number; display_name: string }

export interface FieldDef {
  kind: Kind
  nullable?: boolean
  /** Related resource name (fk, m2m, reverse, nested). */
  target?: string
  /** fk: render the related object in full instead of its URL. */
  embed?: boolean
  /** reverse/nested: the column of the source table that points back at this row. */
  via?: string
  /** reverse/nested: the resource whose rows are read. Defaults to target. */
  from?: string
  /** reverse: the column of `from` holding the id to link to (default id). */
  pick?: string
  /** fk_id: the fk field whose raw id this field shows. */
  of?: string
  /** const: the value always shown (fields the service does not hold yet). */
  value?: unknown
  choices?: readonly Choice[]
  maxLength?: number
  minValue?: number
  maxValue?: number
  /** Filled in by the service, never by a client write. */
  readOnly?: boolean
  /** A write must give it (OPTIONS `required`). */
  required?: boolean
  /** OPTIONS label, when it is not the field name with a capital first letter and spaces. */
  label?: string
  /** OPTIONS type where the kind does not decide it (a slug, a URL, an e-mail address, a file path, a read-only integer shown as `field`). */
  input?: InputType
  /** Accepted on writes, never shown in responses. */
  writeOnly?: boolean
  /** Stored (and filterable) but neither shown nor described: an owner id, a parent link the reference does not serialize. */
  hidden?: boolean
  /** One line for OPTIONS and OpenAPI, in our words. */
  help?: string
  /** fk, m2m, reverse: show the related row's raw id (an integer) instead of a link. */
  asId?: boolean
  /** reverse: one link (or null) instead of a list, for a one-to-one link held by the other side. */
  single?: boolean
  /** nested, embedded fk: the fields of the related resource shown, in this order (default: all it shows). */
  only?: readonly string[]
  /** Shown in responses but left out of OPTIONS actions, as the reference's metadata leaves it out. */
  unlisted?: boolean
  /**
   * A large text (an opinion's texts): the API's read model stores rows without it, and reads that
   * show it fetch it from ClickHouse by key (api/read-model/large-texts.ts), so the copy every API
   * host keeps does not grow with the corpus' texts.
   */
  large?: boolean
}

export type InputType = 'slug' | 'url' | 'email' | 'file upload' | 'decimal' | 'json' | 'list' | 'field' | 'integer' | 'string' | 'float' | 'boolean' | 'date' | 'datetime' | 'time' | 'choice' | 'multiple choice' | 'nested object'

export interface FilterDef {
  lookups?: readonly Lookup[]
  /** A related filter: every filter of that resource under `<name>__`. */
  related?: string
  /** Column compared, when it is not the field of the same name (e.g. parent_court → parent_court_id). */
  field?: string
  /** A related filter reached through this field of the related resource, which points back here. */
  reverse?: string
  /** A multiple-choice filter accepts several values (repeated or comma-separated). */
  multiple?: boolean
  /** The filter class OPTIONS shows, where the field kind does not decide it (choice fields). */
  type?: 'ChoiceFilter' | 'ModelChoiceFilter' | 'DateFromToRangeFilter'
  /** Choices OPTIONS lists for this filter, where they differ from the field's (grouped or extra values). */
  choices?: readonly Choice[]
  /** A true/false switch that shapes nested lists instead of selecting rows (no column; OPTIONS shows a BooleanFilter). */
  flag?: boolean
}

/**
 * Who reads a resource:
 *   public        anyone;
 *   authenticated any signed-in user;
 *   owner         only rows whose `owner` column is the caller (another user's id answers 404);
 *   published     anyone reads rows marked published; the owner also reads its own.
 */
export type Access = 'public' | 'authenticated' | 'owner' | 'published'

export interface ResourceDef {
  name: string
  /** Human name of the endpoint: "Opinion Cluster" gives "Opinion Cluster List" in OPTIONS. */
  label: string
  /** Model name in not-found messages, as the reference spells it: "No OpinionCluster matches the given query." */
  model: string
  /** Plural shown by related filters: "See available filters for 'Opinion Clusters'". */
  plural: string
  table: string
  key: 'id'
  keyKind: 'int' | 'string'
  fields: Record<string, FieldDef>
  filters: Record<string, FilterDef>
  orderings: readonly string[]
  /** Default ordering, e.g. '-id'. */
  ordering: string
  /** Orderings that switch v4 to cursor pagination. */
  cursorOrderings: readonly string[]
  access: Access
  /** Served under /api/rest/v4/<path>/ (false for internal resources such as parallel citations). */
  api: boolean
  /** URL path under the version prefix when it is not the name (`visualizations/json`). */
  path?: string
  /** owner/published access: the column holding the owning user's id. */
  owner?: string
  /** published access: the boolean column that makes a row readable by anyone. */
  publishedFlag?: string
  /** What clients may send (OPTIONS `actions`): POST on the list, PUT on the detail. Default both. */
  writes?: { create: boolean; update: boolean }
  /**
   * Ids that no longer exist but went somewhere: a detail GET of one answers 301 to where it went,
   * or 410 with `goneDetail` when the reason is one of `gone` (rows of `resource` whose `via` column
   * holds the old id, `to` the new one, `reason` why).
   */
  redirections?: { resource: string; via: string; to: string; reason: string; gone: readonly number[]; goneDetail: string }
  /** Methods the detail URL answers besides GET/OPTIONS (the rest answer 405). */
  methods?: readonly ('POST' | 'PUT' | 'PATCH' | 'DELETE')[]
  pageSize?: number
  /** The throttle scope that replaces the user scope on this resource's routes (reference: tags, fetch). */
  throttle?: 'tags' | 'fetch'
  /** A `page_size` query parameter sets the page size (in page-number mode only, as the reference). */
  pageSizeQuery?: boolean
  /** Path of the resource on the website, for absolute_url. */
  absoluteUrl?: (row: Record<string, unknown>) => string
  description: string
  /**
   * List indexes the API's read model keeps (stored column names): rows ordered by each of
   * `orders` within each combination of `by` values, so a list filtered by equality on `by`
   * (optionally a range on the ordering) and ordered by one of `orders` is answered without a
   * ClickHouse query (api/engine/list-plan.ts). Orders must be int, date or datetime columns.
   * defineResource adds the whole-table index (wholeTableIndex).
   */
  listIndexes?: readonly ListIndexDef[]
  /**
   * The read model keeps this resource's v4 detail rendered as JSON, rebuilt when any row it shows
   * changes (api/read-model/rendered-details.ts): a detail GET is one read. Ignored on per-user
   * resources (owner, published) and views, whose objects depend on who asks or on another table.
   */
  renderedDetail?: boolean
  /**
   * Whether outside consumers may read the resource's entity topic: `internal` for what belongs to
   * the service or its users (accounts, tokens, webhooks, alerts, private tags). Default: public,
   * unless the resource is per-user (`owner`). See schemas/events/feeds.ts.
   */
  feed?: 'public' | 'internal'
  /** The write hooks (api/writes/hooks.ts) that make and check the rows clients write, by name; none: not writable. */
  writeHooks?: string
  /** What the service adds to the resource's objects when it shows them (api/plugins/citation-overlays.ts), by name. */
  overlay?: string
  /** The search documents that show the resource's rows (streams/search/documents.ts). */
  search?: SearchSourceDef
}

/** The search types (domain/search/fields.ts): opinions, archive dockets, dockets, archive documents, people, oral arguments. */
export type SearchTypeName = 'o' | 'r' | 'd' | 'rd' | 'p' | 'oa'

export interface SearchSourceDef {
  /** The search types whose documents a change of the resource's rows rebuilds. */
  types: readonly SearchTypeName[]
  /**
   * Rows that belong to another entity's documents (an opinion to its cluster's, a party to its
   * dockets'): the fk or m2m field naming that entity, and the types where a change of the row
   * rebuilds the documents of the entities it names, now and when it was last indexed.
   */
  parent?: { field: string; types: readonly SearchTypeName[] }
}

export interface ListIndexDef { by: readonly string[]; orders: readonly string[] }

export function defineResource<R extends Omit<ResourceDef, 'key' | 'api' | 'cursorOrderings' | 'ordering' | 'access'> & Partial<Pick<ResourceDef, 'api' | 'cursorOrderings' | 'ordering' | 'access'>>>(r: R): ResourceDef {
  const def: ResourceDef = {
    key: 'id', api: true, ordering: '-id', access: 'public',
    cursorOrderings: ['id', 'date_created', 'date_modified'],
    ...r,
  }
  const whole = wholeTableIndex(def)
  return whole ? { ...def, listIndexes: [...(def.listIndexes ?? []), whole] } : def
}

/**
 * The lists a new user and a mirror read first, kept by the read model for every resource that has
 * a change time and whose lists do not depend on who asks: the whole table newest first (the
 * default `-id`) and in `date_modified` order (how `lds ingest mirror` and other followers walk it).
 */
function wholeTableIndex(r: ResourceDef): ListIndexDef | undefined {
  if (!r.api || r.access === 'owner' || r.access === 'published' || !r.cursorOrderings.includes('date_modified')) return undefined
  const orders = [r.key, 'date_modified'].filter((o) => r.cursorOrderings.includes(o) && (o === r.key || r.orderings.includes(o)))
  return orders.length ? { by: [], orders } : undefined
}

const N = { nullable: true } as const
type Opts = Partial<Pick<FieldDef, 'nullable' | 'choices' | 'maxLength' | 'minValue' | 'maxValue' | 'readOnly' | 'required' | 'label' | 'input' | 'writeOnly' | 'hidden' | 'help' | 'asId' | 'single' | 'only' | 'unlisted' | 'large'>>

/** Field constructors: `field.date(N)` is a nullable date. */
export const field = {
  int: (o: Opts = {}): FieldDef => ({ kind: 'int', ...o }),
  float: (o: Opts = {}): FieldDef => ({ kind: 'float', ...o }),
  string: (o: Opts = {}): FieldDef => ({ kind: 'string', ...o }),
  bool: (o: Opts = {}): FieldDef => ({ kind: 'bool', ...o }),
  date: (o: Opts = {}): FieldDef => ({ kind: 'date', ...o }),
  datetime: (o: Opts = {}): FieldDef => ({ kind: 'datetime', ...o }),
  time: (o: Opts = {}): FieldDef => ({ kind: 'time', ...o }),
  json: (o: Opts = {}): FieldDef => ({ kind: 'json', nullable: true, ...o }),
  strings: (o: Opts = {}): FieldDef => ({ kind: 'strings', ...o }),
  created: (): FieldDef => ({ kind: 'datetime', readOnly: true }),
  modified: (): FieldDef => ({ kind: 'datetime', readOnly: true }),
  fk: (target: string, o: Opts & { embed?: boolean } = {}): FieldDef => ({ kind: 'fk', target, ...o }),
  m2m: (target: string, o: Opts = {}): FieldDef => ({ kind: 'm2m', target, ...o }),
  fkId: (of: string): FieldDef => ({ kind: 'fk_id', of, readOnly: true }),
  /** A list of links to rows of `from` whose `via` column points at this row. */
  reverse: (target: string, via: string, o: { from?: string; pick?: string } & Opts = {}): FieldDef => ({ kind: 'reverse', target, via, readOnly: true, ...o }),
  /** A list of full objects of `target` whose `via` column points at this row. */
  nested: (target: string, via: string, o: Opts = {}): FieldDef => ({ kind: 'nested', target, via, readOnly: true, ...o }),
  uri: (o: Opts = {}): FieldDef => ({ kind: 'uri', readOnly: true, ...o }),
  const: (value: unknown): FieldDef => ({ kind: 'const', value, readOnly: true }),
}
export { N }

export const TEXT_CHOICE = ['exact', 'iexact', 'startswith', 'istartswith'] as const
export const filter = {
  int: { lookups: LOOKUPS.INT } as FilterDef,
  date: { lookups: LOOKUPS.DATE } as FilterDef,
  datetime: { lookups: LOOKUPS.DATETIME } as FilterDef,
  text: { lookups: LOOKUPS.TEXT } as FilterDef,
  exact: { lookups: LOOKUPS.EXACT } as FilterDef,
  bool: { lookups: LOOKUPS.BOOL } as FilterDef,
  lookups: (...lookups: Lookup[]): FilterDef => ({ lookups }),
  rel: (related: string, field?: string): FilterDef => ({ related, field }),
  /** Related filter through `via`, a foreign key or many-to-many field of `related` that points here. */
  back: (related: string, via: string): FilterDef => ({ related, reverse: via }),
  multi: { lookups: LOOKUPS.EXACT, multiple: true } as FilterDef,
  choice: (...lookups: Lookup[]): FilterDef => ({ lookups: lookups.length ? lookups : ['exact'], type: 'ChoiceFilter' }),
  /** Exact match on a foreign key's id, without opening the related resource's filters. */
  model: (fkColumn: string): FilterDef => ({ lookups: ['exact'], field: fkColumn, type: 'ModelChoiceFilter' }),
  /** A true/false switch with no column (see FilterDef.flag). */
  flag: { lookups: LOOKUPS.BOOL, flag: true } as FilterDef,
}

/** Filters every timestamped resource shares. */
export const TIMESTAMP_FILTERS = { id: filter.int, date_created: filter.datetime, date_modified: filter.datetime }
export const TIMESTAMP_ORDERINGS = ['id', 'date_created', 'date_modified'] as const

/** Storage column of a field: fk → `<name>_id`, m2m → `<name>_ids`, else the name. */
/** The field stored in `column` of a resource, as [field name, definition], or undefined. */
export function fieldOfColumn(r: Pick<ResourceDef, 'fields'>, column: string): [string, FieldDef] | undefined {
  return Object.entries(r.fields).find(([n, d]) => columnOf(n, d) === column)
}

export function columnOf(name: string, def: FieldDef): string {
  if (def.kind === 'fk') return `${name}_id`
  if (def.kind === 'm2m') return `${name}_ids`
  return name
}
