/**
 * The one table from field kind to everything that depends on it: the ClickHouse and Avro types,
 * the OPTIONS label and filter class, the lookups a filter may use, and the behaviour of a value of
 * that kind at every edge it crosses:
 *   parse     a filter value from a request (bad text → ValueError with the reference's message);
 *   sqlValue  the SQL operand a parsed value is compared as;
 *   coerce    a record from a connector → the stored value (bad value → InvalidValue);
 *   fromText  a bulk-file cell → the stored value (bad text → InvalidValue);
 *   body      a value of a write's body (JSON, or form text) → the stored value (bad → ValueError
 *             with the reference's serializer message), checked against the field's rules;
 *   render    the stored value as ClickHouse returns it → the API's JSON value;
 *   schema    the JSON Schema of the API value (OpenAPI and response serialization).
 * Engines (filters, entity codec, bulk columns, serializer, describe, OpenAPI) look kinds up here
 * instead of switching on them.
 */
import { sql, type Sql } from '../core/sql.js'
import { normalizeDate, normalizeTimestamp, formatDatetime, INT_TEXT, FLOAT_TEXT, FILTER_DATETIME } from './values.js'

export const LOOKUPS = {
  INT: ['exact', 'gte', 'gt', 'lte', 'lt', 'range'],
  DATE: ['exact', 'gte', 'gt', 'lte', 'lt', 'range', 'year', 'month', 'day'],
  DATETIME: ['exact', 'gte', 'gt', 'lte', 'lt', 'range', 'year', 'month', 'day', 'hour', 'minute', 'second'],
  TEXT: ['exact', 'iexact', 'startswith', 'istartswith'],
  BOOL: ['exact'],
  EXACT: ['exact'],
} as const

export type Lookup = 'exact' | 'iexact' | 'startswith' | 'istartswith' | 'gte' | 'gt' | 'lte' | 'lt' | 'range' | 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second' | 'in' | 'isnull'

/** Stored kinds have a column; derived kinds are computed when a response is built. */
export type StoredKind = 'int' | 'float' | 'string' | 'bool' | 'date' | 'datetime' | 'time' | 'json' | 'strings' | 'fk' | 'm2m'
export type DerivedKind = 'fk_id' | 'reverse' | 'nested' | 'uri' | 'const'
export type Kind = StoredKind | DerivedKind

/** A request value that does not fit its filter; the message is the reference's. */
export class ValueError extends Error { override name = 'ValueError' }
/** A record or bulk value that does not fit its column. */
export class InvalidValue extends Error { override name = 'InvalidValue' }

type AvroType = string | { type: string; items?: string }
export type JsonSchema = Record<string, unknown>

export interface KindSpec {
  /** ClickHouse type of the column (without Nullable). */
  ch: string
  avro: AvroType
  /** DRF-style type label in OPTIONS actions. */
  label: string
  filterClass: string
  lookups: readonly Lookup[]
  /** Arrays cannot be Nullable in ClickHouse; they are empty instead. */
  nullableColumn: boolean
  /** The stored value of a missing, non-nullable column. */
  empty: unknown
  parse(text: string): unknown
  sqlValue(v: unknown): Sql
  coerce(v: unknown): unknown
  fromText(text: string): unknown
  body(v: unknown, rules: BodyRules): unknown
  render(v: unknown): unknown
  schema: JsonSchema
}

/** What a field declares that a write's value is checked against (a subset of FieldDef). */
export interface BodyRules {
  nullable?: boolean; required?: boolean; maxLength?: number; minValue?: number; maxValue?: number; input?: string
  choices?: readonly { value: unknown }[]
}

/** The reference's messages for a write's bad values (its serializer fields'). */
export const BODY_MESSAGES = {
  required: 'This field is required.',
  blank: 'This field may not be blank.',
  null: 'This field may not be null.',
  int: 'A valid integer is required.',
  number: 'A valid number is required.',
  bool: 'Must be a valid boolean.',
  date: 'Date has wrong format. Use one of these formats instead: YYYY-MM-DD.',
  datetime: 'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
  list: 'Expected a list of items.',
  string: 'Not a valid string.',
} as const

/** The words a form may send for a boolean, as the reference's BooleanField takes them. */
const TRUE_WORDS = new Set(['true', 'True', '1', 'on', 'yes'])
const FALSE_WORDS = new Set(['false', 'False', '0', 'off', 'no'])
const refuse = (message: string): never => { throw new ValueError(message) }

function intBody(v: unknown, d: BodyRules): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v.trim()) : NaN
  if (!Number.isSafeInteger(n)) refuse(BODY_MESSAGES.int)
  if (d.choices && !d.choices.some((c) => c.value === n)) refuse(`"${String(v)}" is not a valid choice.`)
  if (d.minValue !== undefined && n < d.minValue) refuse(`Ensure this value is greater than or equal to ${d.minValue}.`)
  if (d.maxValue !== undefined && n > d.maxValue) refuse(`Ensure this value is less than or equal to ${d.maxValue}.`)
  return n
}
function stringBody(v: unknown, d: BodyRules): string {
  if (typeof v === 'object') refuse(BODY_MESSAGES.string)
  const s = String(v)
  if (s.trim() === '' && d.required) refuse(BODY_MESSAGES.blank)
  if (d.maxLength !== undefined && s.length > d.maxLength) refuse(`Ensure this field has no more than ${d.maxLength} characters.`)
  if (d.choices && !d.choices.some((c) => String(c.value) === s)) refuse(`"${s}" is not a valid choice.`)
  if (d.input === 'slug' && s !== '' && !/^[-a-zA-Z0-9_]+$/.test(s)) refuse('Enter a valid “slug” consisting of letters, numbers, underscores or hyphens.')
  return s
}
/** A list whose items are each read by `item` (choices apply to the list's field, not its items). */
const listBody = (item: (v: unknown, d: BodyRules) => unknown) => (v: unknown, d: BodyRules): unknown[] =>
  (Array.isArray(v) ? v : refuse(BODY_MESSAGES.list)).map((x) => (x === null ? (d.nullable ? null : refuse(BODY_MESSAGES.null)) : item(x, { ...d, choices: undefined })))
const keyBody = (v: unknown) => String(v)

const show = (v: unknown) => { const s = typeof v === 'string' ? v : JSON.stringify(v); return JSON.stringify(s.length > 40 ? s.slice(0, 40) + '…' : s) }
const bound = (v: unknown) => sql`${v}`
const same = (v: unknown) => v ?? null

function parseInt64(text: string): number {
  const t = text.trim()
  if (!INT_TEXT.test(t)) throw new ValueError('Enter a number.')
  return Number(t)
}
function coerceInt(v: unknown): number {
  const n = typeof v === 'string' && INT_TEXT.test(v.trim()) ? Number(v) : v
  if (typeof n !== 'number' || !Number.isSafeInteger(n)) throw new InvalidValue(`must be an integer, got ${show(v)}`)
  return n
}
function intFromText(text: string): number {
  if (!INT_TEXT.test(text)) throw new InvalidValue(`not an integer: ${show(text)}`)
  const n = Number(text)
  if (!Number.isSafeInteger(n)) throw new InvalidValue(`integer out of range: ${show(text)}`)
  return n
}
function coerceString(v: unknown): string { return typeof v === 'string' ? v : String(v) }

const INT: KindSpec = {
  ch: 'Int64', avro: 'long', label: 'integer', filterClass: 'NumberFilter', lookups: LOOKUPS.INT, nullableColumn: true, empty: 0,
  parse: parseInt64, sqlValue: bound, coerce: coerceInt, fromText: intFromText, body: intBody, render: same, schema: { type: 'integer' },
}
const STRING: KindSpec = {
  ch: 'String', avro: 'string', label: 'string', filterClass: 'CharFilter', lookups: LOOKUPS.TEXT, nullableColumn: true, empty: '',
  parse: (t) => t, sqlValue: bound, coerce: coerceString, fromText: (t) => t, body: stringBody, render: same, schema: { type: 'string' },
}

export const KINDS: Record<StoredKind, KindSpec> = {
  int: INT,
  float: {
    ch: 'Float64', avro: 'double', label: 'float', filterClass: 'NumberFilter', lookups: LOOKUPS.INT, nullableColumn: true, empty: 0,
    parse: (t) => { const n = Number(t); if (t.trim() === '' || !Number.isFinite(n)) throw new ValueError('Enter a number.'); return n },
    sqlValue: bound,
    coerce: (v) => {
      const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v
      if (typeof n !== 'number' || !Number.isFinite(n)) throw new InvalidValue(`must be a number, got ${show(v)}`)
      return n
    },
    fromText: (t) => { const n = FLOAT_TEXT.test(t) ? Number(t) : NaN; if (!Number.isFinite(n)) throw new InvalidValue(`not a finite number: ${show(t)}`); return n },
    body: (v) => { const n = typeof v === 'number' ? v : Number(v); if (typeof v === 'boolean' || !Number.isFinite(n) || v === '') refuse(BODY_MESSAGES.number); return n },
    render: same, schema: { type: 'number' },
  },
  string: STRING,
  bool: {
    ch: 'Bool', avro: 'boolean', label: 'boolean', filterClass: 'BooleanFilter', lookups: LOOKUPS.BOOL, nullableColumn: true, empty: false,
    parse: (t) => {
      if (['true', 'True', '1'].includes(t)) return true
      if (['false', 'False', '0'].includes(t)) return false
      throw new ValueError('Select a valid choice.')
    },
    sqlValue: bound,
    coerce: (v) => {
      if (typeof v === 'boolean') return v
      if (v === 't' || v === 'true') return true
      if (v === 'f' || v === 'false') return false
      throw new InvalidValue(`must be a boolean, got ${show(v)}`)
    },
    fromText: (t) => { if (t === 't') return true; if (t === 'f') return false; throw new InvalidValue(`not a boolean (t/f): ${show(t)}`) },
    body: (v) => (typeof v === 'boolean' ? v : TRUE_WORDS.has(String(v)) ? true : FALSE_WORDS.has(String(v)) ? false : refuse(BODY_MESSAGES.bool)),
    render: same, schema: { type: 'boolean' },
  },
  // Dates are kept as ISO 'YYYY-MM-DD' strings: case law reaches back to the 1700s, before
  // ClickHouse's Date32 range, and ISO dates compare and sort correctly as text.
  date: {
    ch: 'String', avro: 'string', label: 'date', filterClass: 'DateFilter', lookups: LOOKUPS.DATE, nullableColumn: true, empty: '',
    parse: (t) => { if (normalizeDate(t) === undefined) throw new ValueError('Enter a valid date.'); return t },
    sqlValue: bound,
    coerce: (v) => { if (typeof v !== 'string' || (v !== '' && normalizeDate(v) === undefined)) throw new InvalidValue(`must be a date (YYYY-MM-DD), got ${show(v)}`); return v },
    fromText: (t) => { const d = normalizeDate(t); if (d === undefined) throw new InvalidValue(`invalid date: ${show(t)}`); return d },
    body: (v, d) => (v === '' && d.nullable ? null : normalizeDate(String(v)) === undefined ? refuse(BODY_MESSAGES.date) : String(v)),
    // A date a record left out is stored empty and shown as null: "" is not a date.
    render: (v) => (v === '' || v === undefined ? null : v), schema: { type: ['string', 'null'], format: 'date' },
  },
  datetime: {
    ch: "DateTime64(6, 'UTC')", avro: 'string', label: 'datetime', filterClass: 'IsoDateTimeFilter', lookups: LOOKUPS.DATETIME, nullableColumn: true,
    empty: '1970-01-01T00:00:00+00:00',
    parse: (t) => { if (!FILTER_DATETIME.test(t) || Number.isNaN(Date.parse(t))) throw new ValueError('Enter a valid date/time.'); return t },
    sqlValue: (v) => sql`parseDateTime64BestEffort(${v}, 6, 'UTC')`,
    coerce: (v) => { if (typeof v !== 'string' || Number.isNaN(Date.parse(v))) throw new InvalidValue(`must be an ISO 8601 timestamp, got ${show(v)}`); return v },
    fromText: (t) => { const d = normalizeTimestamp(t); if (d === undefined) throw new InvalidValue(`invalid timestamp: ${show(t)}`); return d },
    body: (v, d) => (v === '' && d.nullable ? null : Number.isNaN(Date.parse(String(v))) ? refuse(BODY_MESSAGES.datetime) : String(v)),
    render: (v) => formatDatetime(v) ?? null, schema: { type: 'string', format: 'date-time' },
  },
  time: {
    ...STRING, label: 'time', filterClass: 'TimeFilter', lookups: LOOKUPS.INT,
    render: (v) => (v === '' || v === undefined ? null : v),
    // A time of day as written (HH:MM[:SS[.ffffff]]), without the offset JSON Schema's `time` format requires.
    schema: { type: ['string', 'null'], pattern: '^\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?$' },
  },
  json: {
    ch: 'String', avro: 'string', label: 'nested object', filterClass: 'CharFilter', lookups: LOOKUPS.EXACT, nullableColumn: true, empty: '',
    parse: (t) => t, sqlValue: bound,
    coerce: (v) => (typeof v === 'string' ? v : JSON.stringify(v)),
    fromText: (t) => t,
    body: (v) => (typeof v === 'string' ? v : JSON.stringify(v)),
    render: (v) => {
      if (v === null || v === undefined || v === '') return null
      try { return JSON.parse(String(v)) } catch { return v }
    },
    schema: {},
  },
  strings: {
    ch: 'Array(String)', avro: { type: 'array', items: 'string' }, label: 'field', filterClass: 'CharFilter', lookups: LOOKUPS.EXACT, nullableColumn: false, empty: [],
    parse: (t) => t, sqlValue: bound,
    coerce: (v) => { if (!Array.isArray(v)) throw new InvalidValue('must be a list'); return v.map(String) },
    fromText: (t) => { throw new InvalidValue(`a list cannot come from text: ${show(t)}`) },
    body: listBody(stringBody),
    render: (v) => v ?? [], schema: { type: 'array', items: { type: 'string' } },
  },
  // Relations store the related key; its type follows the related resource's key (see keyed()).
  fk: { ...INT, label: 'field', filterClass: 'RelatedFilter', lookups: LOOKUPS.EXACT, schema: { type: 'string', format: 'uri' } },
  m2m: {
    ch: 'Array(Int64)', avro: { type: 'array', items: 'long' }, label: 'field', filterClass: 'RelatedFilter', lookups: LOOKUPS.EXACT, nullableColumn: false, empty: [],
    parse: parseInt64, sqlValue: bound,
    coerce: (v) => { if (!Array.isArray(v)) throw new InvalidValue('must be a list'); return v.map(coerceInt) },
    fromText: (t) => { throw new InvalidValue(`a list cannot come from text: ${show(t)}`) },
    body: listBody(intBody),
    render: (v) => v ?? [], schema: { type: 'array', items: { type: 'string', format: 'uri' } },
  },
}

/** A key of a string-keyed resource (courts): stored, filtered and read as text. */
const STRING_KEY: KindSpec = { ...STRING, filterClass: 'CharFilter', lookups: LOOKUPS.EXACT, body: keyBody }
const STRING_KEYS: KindSpec = {
  ...KINDS.m2m, ch: 'Array(String)', avro: { type: 'array', items: 'string' }, parse: (t) => t, body: listBody(keyBody),
  coerce: (v) => { if (!Array.isArray(v)) throw new InvalidValue('must be a list'); return v.map(String) },
}

/**
 * The spec of a stored kind. `stringKey` says the value is (or holds) the key of a string-keyed
 * resource: the key itself, or a relation to such a resource.
 */
export function keyed(kind: StoredKind, stringKey: boolean): KindSpec {
  if (!stringKey) return KINDS[kind]
  if (kind === 'm2m') return STRING_KEYS
  return { ...STRING_KEY, label: KINDS[kind].label }
}

export const isStored = (k: Kind): k is StoredKind => k in KINDS
