/**
 * Content negotiation as the reference's framework does it, as a pure function of the
 * `format` query parameter and the Accept header.
 *
 * Renderers, in the reference's order: JSON (`application/json`, format `json`), the browsable
 * API (`text/html`, format `api`), XML (`application/xml`, also `text/xml`, format `xml`).
 *
 * - `?format=` picks the renderer and wins over Accept; an unknown format is a 404 (the
 *   reference filters its renderers by format and finds none). An empty value is ignored.
 * - Otherwise the Accept entries are grouped by specificity (`type/sub;params` >
 *   `type/sub` > `type/*` > `*\/*`); the most specific group is tried first, and inside a
 *   group the renderers in their order. So a browser's
 *   `text/html,application/xhtml+xml,application/xml;q=0.9,*\/*;q=0.8` gets HTML, and
 *   `application/xml, application/json` gets JSON, as from the reference. Quality values do
 *   not rank (as in the reference), but an entry with `q=0` is a refusal and is skipped.
 * - An absent or empty header means `*\/*`, that is JSON.
 * - `indent=N` on the matched entry (`application/json; indent=4`, also `*\/*; indent=4`)
 *   pretty-prints JSON with N spaces, clamped to 0..8; 0 or a non-integer means no indent.
 * - Nothing acceptable: 406.
 */

export type Format = 'json' | 'xml' | 'api'

export type Negotiated =
  | { format: Format; indent: number | null }
  | { status: 404 | 406; detail: string }

export const NOT_ACCEPTABLE_DETAIL = 'Could not satisfy the request Accept header.'
export const UNKNOWN_FORMAT_DETAIL = 'Not found.'

interface Renderer { format: Format; types: readonly (readonly [string, string])[] }

const RENDERERS: readonly Renderer[] = [
  { format: 'json', types: [['application', 'json']] },
  { format: 'api', types: [['text', 'html']] },
  { format: 'xml', types: [['application', 'xml'], ['text', 'xml']] },
]

interface MediaRange { main: string; sub: string; params: Map<string, string>; precedence: number }

function parseRange(token: string): MediaRange | null {
  const parts = token.split(';')
  const full = parts[0].trim().toLowerCase()
  if (!full) return null
  const slash = full.indexOf('/')
  const main = slash < 0 ? full : full.slice(0, slash).trim()
  const sub = slash < 0 ? '' : full.slice(slash + 1).trim()
  const params = new Map<string, string>()
  for (const p of parts.slice(1)) {
    const eq = p.indexOf('=')
    if (eq < 0) continue
    params.set(p.slice(0, eq).trim().toLowerCase(), p.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1'))
  }
  const q = params.get('q')
  if (q !== undefined && Number(q) === 0) return null
  const onlyQ = params.size === 0 || (params.size === 1 && q !== undefined)
  const precedence = main === '*' ? 0 : sub === '*' ? 1 : onlyQ ? 2 : 3
  return { main, sub, params, precedence }
}

function matches(range: MediaRange, [main, sub]: readonly [string, string]): boolean {
  return (range.main === '*' || range.main === main) && (range.sub === '*' || range.sub === sub)
}

function indentOf(range: MediaRange | null): number | null {
  const raw = range?.params.get('indent')
  if (raw === undefined || !/^[+-]?\d+$/.test(raw)) return null
  const n = Math.max(Math.min(Number(raw), 8), 0)
  return n === 0 ? null : n
}

/** The rendering for a request: its `format` query value (last one, if repeated) and Accept header. */
export function negotiate(format: string | null | undefined, accept: string | undefined): Negotiated {
  let renderers = RENDERERS
  if (format) {
    renderers = RENDERERS.filter((r) => r.format === format)
    if (!renderers.length) return { status: 404, detail: UNKNOWN_FORMAT_DETAIL }
  }
  const ranges = (accept && accept.trim() ? accept : '*/*').split(',').map(parseRange).filter((r): r is MediaRange => r !== null)
  for (let precedence = 3; precedence >= 0; precedence--) {
    const group = ranges.filter((r) => r.precedence === precedence)
    if (!group.length) continue
    for (const renderer of renderers) {
      for (const range of group) {
        if (renderer.types.some((t) => matches(range, t))) {
          return { format: renderer.format, indent: renderer.format === 'json' ? indentOf(range) : null }
        }
      }
    }
  }
  // A format named in the URL is answered even when the Accept header does not list it.
  if (format) return { format: renderers[0].format, indent: null }
  return { status: 406, detail: NOT_ACCEPTABLE_DETAIL }
}
