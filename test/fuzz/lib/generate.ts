/**
 * Hostile requests, generated from the catalogue by a seeded PRNG (the same seed gives the same
 * requests): random endpoints (list, detail, other routes, v3 and v4) × filter names (valid, with
 * a wrong or deep lookup, garbage, very long) × values (SQL metacharacters, unicode, NUL bytes,
 * huge and negative numbers, NaN, dates out of range, percent- and double-encoding), forged and
 * replayed cursors, huge fields/omit lists with `__` nesting, page values, order_by garbage,
 * repeated parameters, Accept headers, methods and bodies. Each request also lists the values it
 * carries that must never appear in SQL text (`probes`): what the server decodes, including the
 * position inside a cursor.
 */
import type { ResourceDef } from '../../../schemas/define.js'
import type { Catalogue } from '../../../schemas/catalogue/index.js'

import { mulberry32, pick, intBetween as int, chance, type Rng } from '../../kit/random.js'

export type { Rng }
/** The kit's seeded PRNG, under the name the fuzz and search tests import. */
export const prng = mulberry32

export interface FuzzRequest {
  n: number
  method: 'GET' | 'HEAD' | 'OPTIONS' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  url: string
  headers: Record<string, string>
  payload?: string
  /** Decoded request values that must not appear in any SQL text. */
  probes: string[]
}

/** Percent-encoding of the UTF-8 bytes (a lone surrogate becomes U+FFFD, as a client would send it). */
export function pct(s: string, keep: RegExp = /[A-Za-z0-9\-_.~]/): string {
  let out = ''
  for (const b of Buffer.from(s, 'utf8')) {
    const c = String.fromCharCode(b)
    out += b < 0x80 && keep.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`
  }
  return out
}


const SQL_BITS = ["'", '"', ';', '--', '/*', '*/', '\\', '`', "')", "'))", ' OR 1=1', "' OR '1'='1", '; DROP TABLE dockets; --', 'UNION SELECT 1', '{p1:String}', '{x:Int64}', '%', '_', '\\0', "\\'", '$$', '${', '#', '\n', '\r\n', '\t']
const UNICODE = ['é', 'ß', 'Ω', '中文', '𝔘𝔫𝔦', '😀', '\u202e', '\u2028', '\u0000', '\ufeff', '\ud800', 'ǅ', 'İ', '\u0301', '⁄', '＇', '＂']
const NUMBERS = ['0', '-1', '1', '-0', '00', '1e3', '1.5', '-1.5', '9223372036854775807', '9223372036854775808', '-9223372036854775809', '99999999999999999999999999999', '1' + '0'.repeat(400), 'NaN', 'Infinity', '-Infinity', '0x10', '1_000', ' 1', '1 ', '+1', '٣', '１', '2147483648', '4294967296', '18446744073709551616']
const DATES = ['0000-00-00', '0001-01-01', '9999-12-31', '10000-01-01', '2020-02-30', '2020-13-01', '2021-02-29', '1969-12-31T23:59:59Z', '2262-04-12T00:00:00Z', '2299-12-31T23:59:59.999999Z', '1900-01-01T00:00:00+25:00', '2020-01-01T24:00:00', '2020-01-01T00:00:60', '-0001-01-01', '2020-01-01 00:00:00', '2020-01-01T00:00:00.1234567890123Z', '2020', '2020-01', '1 year ago', 'now()', "2020-01-01'", '2020-01-01T00:00:00-00:00']

export interface Generator { next(): FuzzRequest; remember(url: string): void }

export function createGenerator(cat: Catalogue, rng: Rng, auth: { token: string; userId: number }): Generator {
  const resources = cat.resources.filter((r) => r.api)
  /** Cursors seen in answers (next/previous URLs), replayed elsewhere. */
  const cursors: string[] = []
  let n = 0
  let markerSeq = 0
  /** A distinctive string, so a value that leaked into SQL text is found there. */
  const marker = () => `zq${(rng() * 1e9).toString(36).replace('.', '')}${(markerSeq++).toString(36)}x`

  /**
   * The filter names of a resource, computed once: its own filters and lookups, and through each
   * related filter the first names of the related resource, down to 5 hops (beyond the 4 allowed).
   */
  const namesOf = new Map<string, string[]>()
  function filterNames(r: ResourceDef, depth = 0): string[] {
    const known = depth === 0 ? namesOf.get(r.name) : undefined
    if (known) return known
    const out: string[] = []
    for (const [name, fd] of Object.entries(r.filters)) {
      if (fd.related) {
        out.push(name, `${name}__id`)
        if (depth < 5) out.push(...filterNames(cat.get(fd.related), depth + 1).slice(0, depth < 2 ? 8 : 3).map((x) => `${name}__${x}`))
      } else {
        out.push(name, ...(fd.lookups ?? []).map((l) => `${name}__${l}`))
      }
    }
    if (depth === 0) namesOf.set(r.name, out)
    return out
  }

  function garbage(len: number): string {
    let s = ''
    for (let i = 0; i < len; i++) {
      const k = rng()
      if (k < 0.4) s += String.fromCharCode(int(rng, 32, 126))
      else if (k < 0.6) s += pick(rng, SQL_BITS)
      else if (k < 0.75) s += pick(rng, UNICODE)
      else s += String.fromCharCode(int(rng, 0, 0xffff))
    }
    return s
  }

  function value(): string {
    const m = marker()
    switch (int(rng, 0, 13)) {
      case 0: case 12: case 13: return pick(rng, NUMBERS)
      case 1: return pick(rng, DATES)
      case 2: return `${m}${pick(rng, SQL_BITS)}${m}`
      case 3: return `${pick(rng, ['1', 'ab', '2020-01-02', 'true'])}${pick(rng, SQL_BITS)}${m}`
      case 4: return garbage(int(rng, 1, 40)) + m
      case 5: return `${pick(rng, NUMBERS)},${pick(rng, NUMBERS)}`
      case 6: return `${pick(rng, DATES)},${m}`
      case 7: return pick(rng, ['true', 'false', 'True', 'TRUE', 'yes', '1', '0', 'null', 'None', '', ' '])
      case 8: return m + 'x'.repeat(chance(rng, 0.02) ? int(rng, 2_000, 20_000) : int(rng, 100, 1_000))
      case 9: return `${m}\u0000${pick(rng, SQL_BITS)}`
      case 10: return `${pick(rng, UNICODE)}${m}${pick(rng, UNICODE)}`
      default: return pick(rng, ['1', 'k1', 'ab', '2020-01-02', '2020-01-02T03:04:05Z', 'F', String(auth.userId), '1,2', '2020-01-01,2020-12-31'])
    }
  }

  function paramName(r: ResourceDef | undefined, onlyValid: boolean): string {
    const names = r ? filterNames(r) : []
    const valid = names.length ? names : ['id']
    switch (onlyValid ? int(rng, 0, 4) : int(rng, 0, 9)) {
      case 0: case 1: case 2: case 3: return pick(rng, valid) + (chance(rng, 0.15) ? '!' : '')
      case 4: return `${pick(rng, valid)}__${pick(rng, ['foo', 'in', 'isnull', 'range', 'year', 'regex', 'contains', '', '__', 'exact__exact', 'gte__lt'])}`
      case 5: return pick(rng, valid).toUpperCase()
      case 6: return garbage(int(rng, 1, 20)) + marker()
      case 7: return `${marker()}${'__a'.repeat(int(rng, 1, 300))}`
      case 8: return pick(rng, ['fields', 'omit', 'page', 'page_size', 'cursor', 'order_by', 'format', 'count', 'fields!', 'q', 'type'])
      default: return Array.from({ length: int(rng, 5, 12) }, () => pick(rng, ['docket', 'court', 'clusters', 'id', 'sub_opinions', 'cluster', 'dockets', 'person', 'positions', 'tags'])).join('__')
    }
  }

  function cursor(): { text: string; probe?: string } {
    const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64')
    const m = marker()
    switch (int(rng, 0, 7)) {
      case 0: return { text: Buffer.from(Array.from({ length: int(rng, 1, 60) }, () => int(rng, 0, 255))).toString('base64') }
      case 1: return { text: b64(garbage(int(rng, 1, 50))) }
      case 2: { const p = `2020-01-01${pick(rng, SQL_BITS)}${m}`; return { text: b64(`o=0&p=${pct(p)}`), probe: p } }
      case 3: { const p = `1${pick(rng, SQL_BITS)}${m}`; return { text: b64(`p=${pct(p)}&r=1`), probe: p } }
      case 4: return { text: b64(chance(rng, 0.5) ? `p=${pct(pick(rng, [...NUMBERS, ...DATES]))}` : `o=${pick(rng, NUMBERS)}&p=${pct(pick(rng, [...NUMBERS, ...DATES]))}&r=${pick(rng, ['1', '0', 'x'])}`) }
      case 5: return { text: cursors.length ? pick(rng, cursors) : 'bz0x' }
      case 6: return { text: pick(rng, ['', '=', '====', 'not-a-cursor', '%00', '../../', 'cD0x', 'cD0yMDIwLTAxLTAy', 'bz0tMQ==', 'bz05OTk5OTk5OTk5OTk5OTk5OTk5']) }
      default: { const p = `2020-01-02T03:04:05${m}`; return { text: b64(`p=${p}`), probe: p } }
    }
  }

  function fieldList(): string {
    const names = ['id', 'resource_uri', 'court', 'docket', 'archive_documents', 'plain_text', 'educations', 'school', 'name', 'sub_opinions', 'citations', 'nope', '', '__', 'a__b__c']
    return Array.from({ length: int(rng, 0, chance(rng, 0.01) ? 3000 : 40) }, () => Array.from({ length: int(rng, 1, 6) }, () => pick(rng, names)).join('__')).join(',')
  }

  function query(r: ResourceDef | undefined, probes: string[]): string {
    const parts: string[] = []
    const add = (k: string, v: string) => {
      probes.push(k, v)
      // Percent-encoding as a client sends it, sometimes twice; sometimes raw.
      const enc = (s: string) => {
        const roll = rng()
        if (roll < 0.75) return pct(s)
        if (roll < 0.9) { const once = pct(s); probes.push(once); return pct(once) }
        // Raw: only what would break the URL is encoded (quotes, semicolons, slashes... go as they are).
        return pct(s, /[\x21-\x7e]/).replace(/[#&=?]/g, (c) => pct(c, /^$/))
      }
      parts.push(`${enc(k)}=${enc(v)}`)
    }
    // Often one or two names the resource filters on, with edge values of the kinds filters parse
    // (numbers, dates) or text, so that hostile values get past validation to the SQL builder.
    const onlyValid = chance(rng, 0.45)
    const count = onlyValid ? int(rng, 1, 2) : int(rng, 0, 4)
    for (let i = 0; i < count; i++) {
      const k = paramName(r, onlyValid)
      const v = onlyValid && chance(rng, 0.5) ? pick(rng, [...NUMBERS, ...DATES, `${pick(rng, NUMBERS)},${pick(rng, NUMBERS)}`, `${pick(rng, DATES)},${pick(rng, DATES)}`]) : value()
      add(k, v)
      if (chance(rng, 0.1)) add(k, value()) // repeated
    }
    if (chance(rng, 0.25)) { const c = cursor(); add('cursor', c.text); if (c.probe) probes.push(c.probe) }
    if (chance(rng, 0.2)) add(pick(rng, ['fields', 'omit', 'fields!']), fieldList())
    if (chance(rng, 0.2)) add('page', pick(rng, [...NUMBERS, 'last', 'first', '', '101', '100', '2']))
    if (chance(rng, 0.1)) add('page_size', pick(rng, NUMBERS))
    if (chance(rng, 0.25)) {
      const valid = r?.orderings.length ? r.orderings : ['id']
      add('order_by', pick(rng, [pick(rng, valid), `-${pick(rng, valid)}`, `${pick(rng, valid)},-${pick(rng, valid)}`, `--${pick(rng, valid)}`, value(), `${pick(rng, valid)}${pick(rng, SQL_BITS)}${marker()}`, ',,,', '-']))
    }
    if (chance(rng, 0.1)) add('count', pick(rng, ['on', 'off', 'ON', '', value()]))
    if (chance(rng, 0.08)) add('format', pick(rng, ['json', 'xml', 'api', 'html', 'yaml', '', value()]))
    return parts.join('&')
  }

  function path(r: ResourceDef | undefined, version: string, probes: string[]): string {
    if (!r) {
      return pick(rng, [
        `/api/rest/${version}/`, `/api/rest/${version}/search/`, `/api/rest/${version}/increment-event/`, `/api/rest/${version}/citation-lookup/`,
        `/api/rest/${version}/api-usage/`, `/api/rest/${version}/archive-email/`, `/api/rest/${version}/schema/`, `/api/rest/v1/dockets/`, `/api/rest/v5/dockets/`,
        `/api/rest/${version}/${pct(marker() + pick(rng, SQL_BITS))}/`, '/', '/healthz', `/api/rest/${version}/dockets`, `/api/rest/${version}//dockets/`,
      ])
    }
    const base = `/api/rest/${version}/${r.path ?? r.name}/`
    if (chance(rng, 0.7)) return base
    const id = pick(rng, ['1', '2', 'k1', 'k2', ...NUMBERS.slice(0, 12), marker() + pick(rng, SQL_BITS), '%2e%2e', '..', '%00', 'x'.repeat(300)])
    probes.push(id)
    return `${base}${pct(id)}/`
  }

  const ACCEPTS = ['application/json', 'application/xml', 'text/html', 'text/xml', '*/*', 'application/json; indent=4', 'text/*', 'image/png', 'garbage', ';;;', 'application/json;q=0', '*/*;q=0', 'application/xml, application/json', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'application/json; indent=99999999999999999999', '']

  return {
    remember(url: string) {
      const c = new URL(url, 'http://x.test').searchParams.get('cursor')
      if (c && cursors.length < 200) cursors.push(c)
    },
    next(): FuzzRequest {
      n++
      const probes: string[] = []
      const r = chance(rng, 0.9) ? pick(rng, resources) : undefined
      const version = chance(rng, 0.75) ? 'v4' : pick(rng, ['v3', 'v4'])
      const roll = rng()
      const method = roll < 0.8 ? 'GET' : pick(rng, ['HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE'] as const)
      const q = query(r, probes)
      const url = `${path(r, version, probes)}${q ? `?${q}` : ''}`
      const headers: Record<string, string> = { host: 'x.test' }
      const a = rng()
      if (a < 0.7) headers.authorization = `Token ${auth.token}`
      else if (a < 0.8) headers.authorization = pick(rng, ['Token nope', 'Bearer x', 'Basic !!!', `Basic ${Buffer.from(`${marker()}':x`).toString('base64')}`, 'Token ', 'Token ' + 'a'.repeat(5000), "Token ' OR 1=1 --"])
      if (chance(rng, 0.35)) headers.accept = pick(rng, ACCEPTS)
      let payload: string | undefined
      if (method === 'POST' || method === 'PUT' || method === 'PATCH') {
        const kind = rng()
        const m = marker()
        if (kind < 0.4) { headers['content-type'] = 'application/json'; payload = pick(rng, [`{"text": "${m}\\u0000'--"}`, '{', '[]', 'null', `{"query": "q=${m}'", "name": "x", "rate": "rt"}`, `{"docket": "${m}", "alert_type": 1}`, '{"a":' + '['.repeat(5000)]) }
        else if (kind < 0.7) { headers['content-type'] = 'application/x-www-form-urlencoded'; payload = `text=${encodeURIComponent(m + "'")}&volume=1&reporter=${encodeURIComponent(m + '"')}&page=1` }
        else if (kind < 0.85) { headers['content-type'] = pick(rng, ['text/plain', 'application/xml', 'multipart/form-data; boundary=x', 'garbage/x']); payload = `<a>${m}</a>` }
        else payload = undefined
        if (payload) probes.push(m)
      }
      return { n, method, url, headers, payload, probes }
    },
  }
}
