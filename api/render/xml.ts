/**
 * Renders a JSON-shaped value as XML the way the reference's XMLRenderer writes it:
 *
 *   <?xml version="1.0" encoding="utf-8"?>
 *   <root>…</root>
 *
 * - an object's keys become elements, in order;
 * - a list becomes repeated <list-item> elements;
 * - null (and an empty list or object) becomes an empty element, written <key></key>;
 * - booleans are written True/False (Python's spelling), numbers as their text;
 * - text is escaped (&, <, >), and characters XML 1.0 does not allow (control characters,
 *   lone surrogates, U+FFFE/U+FFFF) are dropped, as the reference strips them from opinion text.
 *
 * One departure, so the output is always well formed: a key that is not a valid XML name
 * (a date like "2026-11-23" as a key in api-usage, a key with spaces or a colon, an empty
 * key) is written as an element named after the key with every character that cannot appear
 * in a name replaced by `_` and a leading `_` when it cannot start one, carrying the exact key
 * in a `key` attribute: `<_2026-11-23 key="2026-11-23">…</_2026-11-23>`. Valid names are
 * written unchanged, so ordinary responses match the reference byte for byte.
 *
 * Values are converted as JSON.stringify would see them (toJSON, Date), so the XML shows the
 * same data as the JSON rendering. The output is built as a list of chunks joined once.
 */

export const XML_DECLARATION = '<?xml version="1.0" encoding="utf-8"?>\n'

// Characters XML 1.0 allows: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF].
const INVALID_XML_CHARS = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u
const INVALID_XML_CHARS_G = new RegExp(INVALID_XML_CHARS.source, 'gu')
const TEXT_SPECIAL = /[&<>]/
const ATTR_SPECIAL_G = /[&<>"\t\n\r]/g
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\t': '&#9;', '\n': '&#10;', '\r': '&#13;' }
const entity = (c: string): string => ENTITIES[c]

/** Drops the characters XML 1.0 cannot carry. */
export function stripInvalidXmlChars(s: string): string {
  return INVALID_XML_CHARS.test(s) ? s.replace(INVALID_XML_CHARS_G, '') : s
}

/** Text content: invalid characters dropped, &, < and > escaped. */
export function escapeXmlText(s: string): string {
  const clean = stripInvalidXmlChars(s)
  // Three plain replacements beat one with a callback on long opinion texts.
  return TEXT_SPECIAL.test(clean) ? clean.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;') : clean
}

function escapeXmlAttr(s: string): string {
  return stripInvalidXmlChars(s).replace(ATTR_SPECIAL_G, entity)
}

// XML 1.0 (5th edition) NameStartChar / NameChar, without ':' so the output is also
// namespace-well-formed.
const NAME_START = 'A-Z_a-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C-\\u200D\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD\\u{10000}-\\u{EFFFF}'
const NAME_CHAR = `${NAME_START}\\-.0-9\\u00B7\\u0300-\\u036F\\u203F-\\u2040`
const VALID_NAME = new RegExp(`^[${NAME_START}][${NAME_CHAR}]*$`, 'u')
const NOT_NAME_CHAR_G = new RegExp(`[^${NAME_CHAR}]`, 'gu')
const NAME_START_CHAR = new RegExp(`^[${NAME_START}]`, 'u')

/** The opening and closing tags for a key; see the header for keys that are not XML names. */
function tagsFor(key: string): [string, string] {
  if (VALID_NAME.test(key)) return [`<${key}>`, `</${key}>`]
  let name = key.replace(NOT_NAME_CHAR_G, '_')
  if (!NAME_START_CHAR.test(name)) name = `_${name}`
  return [`<${name} key="${escapeXmlAttr(key)}">`, `</${name}>`]
}

function write(out: string[], value: unknown): void {
  if (value === null || value === undefined) return
  if (typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON(): unknown }).toJSON()
    if (value === null || value === undefined) return
  }
  switch (typeof value) {
    case 'string': out.push(escapeXmlText(value)); return
    case 'boolean': out.push(value ? 'True' : 'False'); return
    case 'number': out.push(Number.isFinite(value) ? String(value) : ''); return
    case 'bigint': out.push(value.toString()); return
    case 'object': break
    default: return // functions and symbols, which JSON leaves out too
  }
  if (Array.isArray(value)) {
    for (const item of value) {
      out.push('<list-item>')
      write(out, item)
      out.push('</list-item>')
    }
    return
  }
  for (const key of Object.keys(value as object)) {
    const v = (value as Record<string, unknown>)[key]
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue
    const [open, close] = tagsFor(key)
    out.push(open)
    write(out, v)
    out.push(close)
  }
}

/** The whole document; null renders as an empty body, as the reference renders None. */
export function toXml(data: unknown): string {
  if (data === undefined || data === null) return ''
  const out: string[] = [XML_DECLARATION, '<root>']
  write(out, data)
  out.push('</root>')
  return out.join('')
}
