/**
 * Outbound safety for webhook targets: which URLs an owner may register and which addresses a
 * delivery may connect to. The reference sends through an egress proxy that blocks internal
 * addresses; we check in-process instead.
 *
 * Two steps:
 *  - checkWebhookUrl: at registration and before each delivery, the URL itself (https only,
 *    no user:password@, at most 2000 characters, no literal internal address or localhost);
 *  - resolveAndCheck: before connecting, every address the host name resolves to must be
 *    public. The caller should then connect to one of the returned addresses (for example
 *    through an undici `connect.lookup` that returns them), so a second DNS answer cannot
 *    swap in an internal address between the check and the connection (DNS rebinding).
 *
 * `allowInsecure` (LDS_WEBHOOKS_ALLOW_INSECURE=1, local use and tests) lifts the http and the
 * address rules, never the length or userinfo rules.
 */
import { isIP } from 'node:net'

export const MAX_WEBHOOK_URL_LENGTH = 2000

export interface UrlCheckOptions { allowInsecure?: boolean }

export type UrlCheck = { ok: true; url: URL } | { ok: false; error: string }

export function checkWebhookUrl(raw: string, opts: UrlCheckOptions = {}): UrlCheck {
  if (typeof raw !== 'string' || raw.length === 0) return { ok: false, error: 'Enter a valid URL.' }
  if (raw.length > MAX_WEBHOOK_URL_LENGTH) return { ok: false, error: `Ensure this value has at most ${MAX_WEBHOOK_URL_LENGTH} characters (it has ${raw.length}).` }
  let url: URL
  try { url = new URL(raw) } catch { return { ok: false, error: 'Enter a valid URL.' } }
  const allowedSchemes = opts.allowInsecure ? ['https:', 'http:'] : ['https:']
  if (!allowedSchemes.includes(url.protocol)) return { ok: false, error: 'Only HTTPS URLs are allowed.' }
  if (url.username || url.password) return { ok: false, error: 'URLs with credentials (user:password@) are not allowed.' }
  if (!url.hostname) return { ok: false, error: 'Enter a valid URL.' }
  if (!opts.allowInsecure) {
    const host = bareHost(url.hostname)
    if (isIP(host) && isForbiddenAddress(host)) return { ok: false, error: 'This address is not allowed as a webhook target.' }
    if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host.endsWith('.internal')) {
      return { ok: false, error: 'This host is not allowed as a webhook target.' }
    }
  }
  return { ok: true, url }
}

export interface LookupAddress { address: string; family?: number }
/** An injected DNS lookup, e.g. `(h) => dns.promises.lookup(h, { all: true })`. */
export type Lookup = (hostname: string) => Promise<readonly LookupAddress[]>

export type ResolveCheck = { ok: true; addresses: string[] } | { ok: false; error: string }

/** Resolves `hostname` and refuses if ANY address it resolves to is forbidden. */
export async function resolveAndCheck(hostname: string, lookup: Lookup, opts: UrlCheckOptions = {}): Promise<ResolveCheck> {
  const host = bareHost(hostname)
  let addresses: string[]
  if (isIP(host)) {
    addresses = [host]
  } else {
    try {
      addresses = (await lookup(host)).map((a) => a.address)
    } catch (err) {
      return { ok: false, error: `Could not resolve ${host}: ${(err as Error).message ?? String(err)}` }
    }
  }
  if (addresses.length === 0) return { ok: false, error: `Could not resolve ${host}.` }
  if (!opts.allowInsecure) {
    const bad = addresses.find((a) => isForbiddenAddress(a))
    if (bad !== undefined) return { ok: false, error: `${host} resolves to a forbidden address (${bad}).` }
  }
  return { ok: true, addresses }
}

/** `[::1]` → `::1`; names are lower-cased without a trailing dot. */
function bareHost(hostname: string): string {
  let h = hostname.toLowerCase()
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1)
  if (h.endsWith('.')) h = h.slice(0, -1)
  return h
}

// ---------------------------------------------------------------------------------------------
// Address classification

/** IPv4 ranges a webhook may never reach: [network, prefix length, why]. */
export const FORBIDDEN_V4: readonly (readonly [string, number, string])[] = [
  ['0.0.0.0', 8, 'this network'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'carrier-grade NAT'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local (incl. the cloud metadata address 169.254.169.254)'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved, incl. broadcast 255.255.255.255'],
]

/** IPv6 ranges a webhook may never reach (mapped IPv4 is judged by its IPv4 address). */
export const FORBIDDEN_V6: readonly (readonly [string, number, string])[] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['fc00::', 7, 'unique local'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local (deprecated)'],
  ['ff00::', 8, 'multicast'],
]

const V4_RULES = FORBIDDEN_V4.map(([net, len]) => ({ net: v4ToInt(net)!, mask: len === 0 ? 0 : (0xffffffff << (32 - len)) >>> 0 }))
const V6_RULES = FORBIDDEN_V6.map(([net, len]) => ({ net: v6ToBigInt(net)!, len }))

/** True when `ip` is in a forbidden range, or is not an IP address at all. */
export function isForbiddenAddress(ip: string): boolean {
  const host = bareHost(ip).split('%')[0] // drop an IPv6 zone id
  const kind = isIP(host)
  if (kind === 4) return isForbiddenV4(v4ToInt(host)!)
  if (kind === 6) {
    const v = v6ToBigInt(host)
    if (v === null) return true
    const embedded = embeddedV4(v)
    if (embedded !== null) return isForbiddenV4(embedded)
    return V6_RULES.some(({ net, len }) => (v >> BigInt(128 - len)) === (net >> BigInt(128 - len)))
  }
  return true
}

function isForbiddenV4(n: number): boolean {
  return V4_RULES.some(({ net, mask }) => ((n & mask) >>> 0) === net)
}

/** The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d) or NAT64 (64:ff9b::/96) address. */
function embeddedV4(v: bigint): number | null {
  const high = v >> 32n
  const low = Number(v & 0xffffffffn)
  if (high === 0xffffn) return low // ::ffff:0:0/96
  if (high === 0n && low > 1) return low // ::a.b.c.d (deprecated compatible form); ::, ::1 stay IPv6
  if (high === 0x64ff9b0000000000000000n) return low // 64:ff9b::/96
  return null
}

function v4ToInt(s: string): number | null {
  const parts = s.split('.')
  if (parts.length !== 4) return null
  let n = 0
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p)) return null
    const b = Number(p)
    if (b > 255) return null
    n = n * 256 + b
  }
  return n
}

function v6ToBigInt(s: string): bigint | null {
  let text = s
  // a trailing dotted IPv4 (::ffff:127.0.0.1) becomes two hex groups (::ffff:7f00:1)
  const lastColon = text.lastIndexOf(':')
  const tail = text.slice(lastColon + 1)
  if (tail.includes('.')) {
    const n = v4ToInt(tail)
    if (n === null) return null
    text = `${text.slice(0, lastColon + 1)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`
  }
  const halves = text.split('::')
  if (halves.length > 2) return null
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => (/^[0-9a-f]{1,4}$/i.test(g) ? parseInt(g, 16) : NaN)))
  const head = parse(halves[0])
  const rest = halves.length === 2 ? parse(halves[1]) : []
  if (head.some(Number.isNaN) || rest.some(Number.isNaN)) return null
  const total = head.length + rest.length
  if (halves.length === 1 ? total !== 8 : total > 7) return null
  const groups = [...head, ...new Array<number>(8 - total).fill(0), ...rest]
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(g), 0n)
}
