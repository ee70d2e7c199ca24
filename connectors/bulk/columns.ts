/**
 * From the reference's database columns to our storage columns. The reference names some
 * columns after outside providers and the records system; the spec writes those neutrally,
 * and so do we. Values: Postgres timestamps become ISO 8601.
 */
const RENAMES: Record<string, string> = {
  html_lawbox: 'html_partner_a', html_columbia: 'html_partner_b', xml_harvard: 'xml_partner_c',
  filepath_json_harvard: 'filepath_json_partner_c', filepath_pdf_harvard: 'filepath_pdf_partner_c',
}

export function columnName(col: string): string {
  if (RENAMES[col]) return RENAMES[col]
  return col.replace(/pacer/g, 'records').replace(/recap/g, 'archive')
}

const PG_TIMESTAMP = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2}(?:\.\d+)?)([+-]\d{2})(?::?(\d{2}))?$/

/** '2024-01-02 03:04:05.123+00' → '2024-01-02T03:04:05.123+00:00'; other values unchanged. */
export function normalizeValue(v: string | null): string | null {
  if (v === null) return null
  const m = PG_TIMESTAMP.exec(v)
  return m ? `${m[1]}T${m[2]}${m[3]}:${m[4] ?? '00'}` : v
}
