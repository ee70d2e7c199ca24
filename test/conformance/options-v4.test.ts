/**
 * Conformance with the reference, generated from its OPTIONS capture
 * (test/fixtures/reference/options-v4.json, 42 v4 endpoints). On the real stack (Kafka, table
 * sink, ClickHouse, the API with its read model), with two records published for every resource
 * (test/conformance/lib/seed.ts), for each captured endpoint:
 *  - OPTIONS on the list URL (the app's own answer) has the capture's name, renders, parses,
 *    actions (field names in order, types, nested children), filters (type, lookup_types, choices)
 *    and ordering;
 *  - GET on the list answers 200 and every field the capture's actions list (write-only ones
 *    excepted) is in every result with the JSON type the capture and the catalogue give it;
 *  - every filter and lookup takes a valid value (200; an exact match finds the full record),
 *    rejects a bad typed value with a 400 keyed by the parameter, and takes the negation `<name>!=`;
 *    related filters take the related key as `<name>=` and `<name>__id=`;
 *  - every ordering is accepted ascending and descending.
 * Endpoints that are not catalogue resources (search, increment-event) are held to what the capture
 * gives: OPTIONS. One line per endpoint sums it up.
 */
import t from 'tap'
import { seededStack, inBatches, type Obj } from './lib/seed.js'
import { loadCapture, compareOptions, checkFieldValue, filterCases, resultKey } from './lib/capture.js'
import { sweepFilters } from './lib/sweep.js'

/** Differences found by this test that are not clear defects: reported as todos, not failures. */
const TODO: Record<string, string> = {
  search: 'the API serves no search endpoint yet (no route for /api/rest/v4/search/), so it has no OPTIONS answer either',
}
const NULL_ORDER_TODO = 'ClickHouse sorts NULL last in both directions (api/engine/list.ts orderSql has no NULLS FIRST for DESC); the reference, on PostgreSQL, lists NULL rows first when descending'
const CONCURRENCY = 8

t.test('the API conforms to the reference OPTIONS capture', async (t) => {
  const s = await seededStack(t)
  t.comment(`stack seeded in ${(s.setupMs / 1000).toFixed(1)} s`)
  const cap = loadCapture()
  const byPath = new Map(s.cat.resources.filter((r) => r.api).map((r) => [r.path ?? r.name, r]))
  const slowest: { ms: number; url: string }[] = []
  const request = async (url: string, method: 'GET' | 'OPTIONS' = 'GET') => {
    const t0 = performance.now()
    const res = await s.app.inject({ method, url, headers: s.headers })
    const ms = performance.now() - t0
    if (slowest.length < 5 || ms > slowest[slowest.length - 1].ms) { slowest.push({ ms, url }); slowest.sort((a, b) => b.ms - a.ms).splice(5) }
    let body: any
    try { body = res.json() } catch { body = res.body }
    return { status: res.statusCode, body }
  }
  const summary: string[] = []
  let requests = 0
  const started = Date.now()

  for (const [name, c] of Object.entries(cap)) {
    await t.test(name, async (t) => {
      const todo = TODO[name]
      const base = `/api/rest/v4/${name}/`
      const line: string[] = []

      // OPTIONS: the app's answer, compared with the capture.
      const opt = await request(base, 'OPTIONS')
      requests++
      const optDiffs = opt.status === 200 && typeof opt.body === 'object' ? compareOptions(c, opt.body) : [`OPTIONS ${base} → ${opt.status} ${JSON.stringify(opt.body).slice(0, 200)}`]
      t.same(optDiffs, [], `OPTIONS ${base} equals the capture`, { todo: todo && optDiffs.length ? todo : false })
      line.push(optDiffs.length ? `OPTIONS ${optDiffs.length} diffs` : 'OPTIONS ok')

      const r = byPath.get(name)
      if (!r) {
        summary.push(`${name}: ${line.join(', ')} (not a catalogue resource: OPTIONS only)`)
        return
      }
      const full = s.full.get(r.name)!

      // GET list: every captured field (not write-only) in every result, with its JSON type.
      const list = await request(base)
      requests++
      t.equal(list.status, 200, `GET ${base} → 200`)
      const results: Obj[] = Array.isArray(list.body?.results) ? list.body.results : []
      t.ok(results.length >= 2, `GET ${base}: both seeded records listed (${results.length})`)
      const typeProblems: string[] = []
      const fields = Object.entries(c.actions?.POST ?? {}).filter(([f]) => !r.fields[f]?.writeOnly)
      for (const obj of results) {
        for (const [f, ref] of fields) {
          const problem = checkFieldValue(s.cat, r, r.fields[f], ref, obj[f], resultKey(obj) !== s.full.get(r.name)![r.key])
          if (problem) typeProblems.push(`${name} #${resultKey(obj)}: ${f}: ${problem}`)
        }
        for (const f of Object.keys(obj)) if (r.fields[f]?.writeOnly) typeProblems.push(`${name} #${resultKey(obj)}: write-only ${f} is shown`)
      }
      t.same(typeProblems, [], `GET ${base}: ${fields.length} captured fields present with their types in ${results.length} results`)
      line.push(`list ${results.length} rows × ${fields.length} fields ${typeProblems.length ? `${typeProblems.length} type problems` : 'ok'}`)

      // Filters: every name and lookup of the capture, valid and bad values, negation.
      const cases = filterCases(s.cat, r, c, full)
      const { problems, requests: sent } = await sweepFilters(base, cases, request, CONCURRENCY)
      requests += sent
      const nFilters = Object.keys(c.filters ?? {}).length
      // A value that is not one of a choice filter's choices, apart: one rule, many filters.
      const choiceProblems = problems.filter((p) => /^bad exact \((Multiple)?ChoiceFilter\)/.test(p))
      const filterProblems = problems.filter((p) => !choiceProblems.includes(p))
      t.same(filterProblems, [], `${nFilters} filters, ${cases.length} cases in ${sent} requests: valid values accepted and matching the full record, bad typed values rejected with field-keyed 400s, negations accepted`)
      t.same(choiceProblems, [], 'a value that is none of a choice filter\'s choices is a 400 keyed by the parameter ("Select a valid choice…"), as the reference\'s ChoiceFilter answers')
      if (nFilters) line.push(`filters ${nFilters} (${cases.length} cases, ${sent} requests) ${filterProblems.length ? `${filterProblems.length} problems` : 'ok'}${choiceProblems.length ? `, ${choiceProblems.length} invalid choices accepted` : ''}`)

      // Orderings: each one, ascending and descending.
      const orderings = (c.ordering ?? []).flatMap((o) => [o, `-${o}`])
      const ordered = await inBatches(orderings, CONCURRENCY, async (o) => ({ o, ...(await request(`${base}?order_by=${encodeURIComponent(o)}`)) }))
      requests += orderings.length
      const orderProblems = ordered.filter((x) => x.status !== 200 || !Array.isArray(x.body?.results) || x.body.results.length < 2)
        .map((x) => `order_by=${x.o} → ${x.status} ${JSON.stringify(x.body).slice(0, 160)}`)
      // Applied, not ignored: the two seeded rows come in opposite orders ascending and descending
      // (they differ in the field, or tie and are ordered by key in the same direction).
      // Where the sparse row holds NULL, the reference (PostgreSQL) sorts it last ascending and first
      // descending; that case is reported on its own.
      const keysOf = (o: string) => (ordered.find((x) => x.o === o)?.body?.results ?? []).map(resultKey).join(',')
      const nullOrder: string[] = []
      for (const o of c.ordering ?? []) {
        const up = keysOf(o)
        const down = keysOf(`-${o}`)
        if (!up || up !== down) continue
        if (r.fields[o]?.nullable) nullOrder.push(`order_by=${o} and order_by=-${o}: ${up} (the row with NULL last both ways)`)
        else orderProblems.push(`order_by=${o} and order_by=-${o} list the rows in the same order (${up})`)
      }
      t.same(orderProblems, [], `${orderings.length} orderings accepted, applied, with every row listed`)
      t.same(nullOrder, [], 'NULLs sort as the reference sorts them: last ascending, first descending', { todo: nullOrder.length ? NULL_ORDER_TODO : false })
      if (orderings.length) line.push(`orderings ${orderings.length} ${orderProblems.length ? `${orderProblems.length} problems` : 'ok'}${nullOrder.length ? ` (${nullOrder.length} NULL-order todos)` : ''}`)
      summary.push(`${name}: ${line.join(', ')}`)
    })
  }
  t.equal(Object.keys(cap).length, 42, 'the capture has the 42 v4 endpoints')
  t.comment(`${requests} requests in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  t.comment(`slowest: ${slowest.map((x) => `${x.ms.toFixed(0)} ms ${x.url.slice(0, 150)}`).join('\n  ')}`)
  for (const l of summary) t.comment(l)
})
