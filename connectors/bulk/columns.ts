/**
 * From the reference's database columns to typed storage columns.
 *
 * Names: the bulk files use the reference's database column names. Our storage columns keep
 * those names except for a few the catalogue spells neutrally (outside providers, the court
 * records system) and a few a table renames (tables.ts `storageColumn`).
 *
 * Types: a column's text is read by the kind of the catalogue's storage column of the same name
 * (`fromText` in schemas/kinds.ts; the codec enforces the same kinds): integers, t/f booleans,
 * YYYY-MM-DD dates, Postgres timestamps as ISO 8601, keys of string-keyed resources as text.
 * Columns the catalogue does not have are passed through as strings. NULL stays null, '' stays ''
 * for strings.
 */
import { catalogue } from '../../schemas/catalogue/index.js'
import { columnSpecs } from '../../schemas/columns.js'
import { KINDS, InvalidValue, type KindSpec } from '../../schemas/kinds.js'
import { normalizeDate, normalizeTimestamp } from '../../schemas/values.js'
import { storageColumn } from './tables.js'

/** The storage column for a bulk-file column (the general renames; a table's own come first, see tables.ts). */
export function columnName(col: string): string {
  return storageColumn(undefined, col)
}

/** A value that does not fit its column; the row goes to the dead-letter file with this message. */
export class BadValue extends Error {
  override name = 'BadValue'
}

export type Converter = (v: string | null) => unknown

const cache = new Map<string, Map<string, KindSpec>>()

/** Storage column → kind spec, for the columns of a resource the catalogue stores. */
export function columnKinds(resource: string): Map<string, KindSpec> {
  let kinds = cache.get(resource)
  if (kinds) return kinds
  kinds = new Map()
  if (catalogue.has(resource)) for (const c of columnSpecs(catalogue, catalogue.get(resource))) kinds.set(c.column, c.spec)
  cache.set(resource, kinds)
  return kinds
}

/** The function that turns a column's text (or NULL) into its typed value; throws BadValue. Unknown columns stay text. */
export function converterFor(column: string, spec: KindSpec = KINDS.string): Converter {
  return (v) => {
    if (v === null) return null
    try { return spec.fromText(v) } catch (err) {
      if (err instanceof InvalidValue) throw new BadValue(`${column}: ${err.message}`)
      throw err
    }
  }
}

export { normalizeDate, normalizeTimestamp }
