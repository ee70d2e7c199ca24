/**
 * The one table from field kind to storage and description: ClickHouse type, Avro type,
 * OPTIONS label, filter class and the lookups a filter on it may use. Every engine (DDL,
 * Avro, filters, OPTIONS, serialization) reads this table instead of switching on kinds.
 */
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

type AvroType = string | { type: string; items?: string }

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
}

export const KINDS: Record<StoredKind, KindSpec> = {
  int: { ch: 'Int64', avro: 'long', label: 'integer', filterClass: 'NumberFilter', lookups: LOOKUPS.INT, nullableColumn: true },
  float: { ch: 'Float64', avro: 'double', label: 'float', filterClass: 'NumberFilter', lookups: LOOKUPS.INT, nullableColumn: true },
  string: { ch: 'String', avro: 'string', label: 'string', filterClass: 'CharFilter', lookups: LOOKUPS.TEXT, nullableColumn: true },
  bool: { ch: 'Bool', avro: 'boolean', label: 'boolean', filterClass: 'BooleanFilter', lookups: LOOKUPS.BOOL, nullableColumn: true },
  // Dates are kept as ISO 'YYYY-MM-DD' strings: case law reaches back to the 1700s, before
  // ClickHouse's Date32 range, and ISO dates compare and sort correctly as text.
  date: { ch: 'String', avro: 'string', label: 'date', filterClass: 'DateFilter', lookups: LOOKUPS.DATE, nullableColumn: true },
  datetime: { ch: "DateTime64(6, 'UTC')", avro: 'string', label: 'datetime', filterClass: 'IsoDateTimeFilter', lookups: LOOKUPS.DATETIME, nullableColumn: true },
  time: { ch: 'String', avro: 'string', label: 'time', filterClass: 'TimeFilter', lookups: LOOKUPS.INT, nullableColumn: true },
  json: { ch: 'String', avro: 'string', label: 'nested object', filterClass: 'CharFilter', lookups: LOOKUPS.EXACT, nullableColumn: true },
  strings: { ch: 'Array(String)', avro: { type: 'array', items: 'string' }, label: 'field', filterClass: 'CharFilter', lookups: LOOKUPS.EXACT, nullableColumn: false },
  fk: { ch: 'Int64', avro: 'long', label: 'field', filterClass: 'RelatedFilter', lookups: LOOKUPS.EXACT, nullableColumn: true },
  m2m: { ch: 'Array(Int64)', avro: { type: 'array', items: 'long' }, label: 'field', filterClass: 'RelatedFilter', lookups: LOOKUPS.EXACT, nullableColumn: false },
}

export const isStored = (k: Kind): k is StoredKind => k in KINDS
