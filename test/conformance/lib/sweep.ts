/**
 * Runs the filter cases of one endpoint with as few ClickHouse queries as the checks allow:
 *  - bad values one request each (each must be its own 400 keyed by its parameter; they are
 *    refused before any query);
 *  - valid cases with `count=on`, grouped: the lookups of one filter that all match the full
 *    record in one request (its count must be ≥ 1), and every case that need not match (gt, lt,
 *    negations) in one request per endpoint (200);
 *  - the list itself once, with every exact filter of the endpoint at once: the full record must
 *    be listed (a list answer costs a page query and the serialization of every row).
 * A group that fails is run again one case at a time, so the report names the parameter at fault.
 */
import type { FilterCase } from './capture.js'
import { resultKey } from './capture.js'
import { inBatches, type Obj } from './seed.js'

export type Requester = (url: string) => Promise<{ status: number; body: any }>

const encodeName = (p: string) => encodeURIComponent(p).replace(/%21$/, '!')
const queryOf = (cases: readonly FilterCase[]) => cases.map((c) => `${encodeName(c.param)}=${encodeURIComponent(c.value)}`).join('&')

export async function sweepFilters(base: string, cases: readonly FilterCase[], request: Requester, concurrency: number): Promise<{ problems: string[]; requests: number }> {
  const problems: string[] = []
  let requests = 0
  const shown = (url: string, status: number, body: unknown) => `${url} → ${status} ${JSON.stringify(body).slice(0, 160)}`

  /** One request for a group of cases: its problems (none when it passed). */
  async function run(group: readonly FilterCase[], list = false): Promise<string[]> {
    const url = `${base}?${queryOf(group)}${list ? '' : '&count=on'}`
    requests++
    const { status, body } = await request(url)
    const what = group.length === 1 ? group[0].what : `${group.length} cases`
    const expect = group[0].expect
    if (status !== expect) return [`${what}: ${shown(url, status, body)}`]
    if (expect === 400) {
      const param = group[0].param
      const keys = body && typeof body === 'object' ? Object.keys(body) : []
      const msgs = body?.[param]
      const ok = keys.length === 1 && keys[0] === param && Array.isArray(msgs) && msgs.length > 0 && msgs.every((m: unknown) => typeof m === 'string')
      return ok ? [] : [`${what}: not a 400 keyed by ${param}: ${shown(url, status, body)}`]
    }
    const finds = group[0].finds
    if (finds === undefined) return []
    if (list) {
      const rows: Obj[] = Array.isArray(body?.results) ? body.results : []
      return rows.some((x) => resultKey(x) === finds) ? [] : [`${what}: the full record #${finds} is not listed: ${shown(url, status, body)}`]
    }
    return typeof body?.count === 'number' && body.count >= 1 ? [] : [`${what}: nothing counted, the full record #${finds} matches: ${shown(url, status, body)}`]
  }

  const groups: FilterCase[][] = []
  const matching = new Map<string, FilterCase[]>()
  const rest: FilterCase[] = []
  const listed = cases.filter((c) => c.list && c.expect === 200 && c.finds !== undefined)
  for (const c of cases) {
    if (c.expect === 400) groups.push([c])
    else if (c.finds !== undefined) {
      const name = c.param.split('__')[0]
      if (!matching.has(name)) matching.set(name, [])
      matching.get(name)!.push(c)
    } else rest.push(c)
  }
  groups.push(...matching.values())
  if (rest.length) groups.push(rest)
  const all = groups.map((g) => ({ g, list: false }))
  if (listed.length) all.push({ g: listed, list: true })
  await inBatches(all, concurrency, async ({ g, list }) => {
    const found = await run(g, list)
    if (!found.length) return
    if (g.length === 1) { problems.push(...found); return }
    // Which cases of the group fail on their own.
    const alone = (await inBatches(g, concurrency, (c) => run([c], list))).flat()
    problems.push(...(alone.length ? alone : found))
  })
  return { problems, requests }
}
