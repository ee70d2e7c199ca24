import t from 'tap'
import { readFileSync } from 'node:fs'
import { catalogue } from '../../../schemas/catalogue/index.js'
import { compileDescription, type FieldAction, type FilterDescription } from '../../../api/engine/describe.js'
import { projectFile } from '../../../core/programs.js'

interface RefAction {
  type: string; required: boolean; read_only: boolean; label: string
  max_length?: number; min_value?: number; max_value?: number
  choices?: { value: unknown; display_name: string }[]
  child?: { type: string; required: boolean; read_only: boolean; children?: Record<string, RefAction> }
  children?: Record<string, RefAction>
}
interface RefEndpoint {
  name: string
  actions?: { POST?: Record<string, RefAction> }
  filters?: Record<string, { type: string; lookup_types: unknown; choices?: { value: unknown }[] }>
  ordering?: string[]
}
const reference = JSON.parse(readFileSync(projectFile('test/fixtures/reference/options-v4.json'), 'utf8')) as Record<string, RefEndpoint>

const values = (choices?: { value: unknown }[]) => choices?.map((c) => c.value)

/**
 * Differences between our `actions` fields and the reference's, as `path: what` lines: field names
 * (in order), type, required, read_only, limits, choice values, and nested children the same way.
 */
function actionDiff(ours: Record<string, FieldAction> | undefined, ref: Record<string, RefAction>, at = ''): string[] {
  const out: string[] = []
  const o = ours ?? {}
  const names = Object.keys(o)
  const refNames = Object.keys(ref)
  if (names.join() !== refNames.join()) out.push(`${at || '(root)'}: fields ${JSON.stringify(names)} != ${JSON.stringify(refNames)}`)
  for (const name of refNames) {
    const a = o[name]
    const r = ref[name]
    const p = at ? `${at}.${name}` : name
    if (!a) continue
    for (const k of ['type', 'required', 'read_only', 'max_length', 'min_value', 'max_value'] as const) {
      if (a[k] !== r[k]) out.push(`${p}: ${k} ${JSON.stringify(a[k])} != ${JSON.stringify(r[k])}`)
    }
    if (JSON.stringify(values(a.choices)) !== JSON.stringify(values(r.choices))) out.push(`${p}: choice values differ`)
    if (r.child) {
      if (!a.child) out.push(`${p}: no child`)
      else {
        for (const k of ['type', 'required', 'read_only'] as const) if (a.child[k] !== r.child[k]) out.push(`${p}.child: ${k} ${a.child[k]} != ${r.child[k]}`)
        if (r.child.children) out.push(...actionDiff(a.child.children, r.child.children, `${p}[]`))
      }
    } else if (a.child) out.push(`${p}: unexpected child`)
    if (r.children) out.push(...actionDiff(a.children, r.children, p))
    else if (a.children) out.push(`${p}: unexpected children`)
  }
  return out
}

/** Differences between our filters and the reference's: names, class, lookups, choice values. */
function filterDiff(ours: Record<string, FilterDescription> | undefined, ref: RefEndpoint['filters']): string[] {
  const out: string[] = []
  const o = ours ?? {}
  const r = ref ?? {}
  if (Object.keys(o).sort().join() !== Object.keys(r).sort().join()) out.push(`filters ${JSON.stringify(Object.keys(o).sort())} != ${JSON.stringify(Object.keys(r).sort())}`)
  for (const [name, f] of Object.entries(r)) {
    const a = o[name]
    if (!a) continue
    if (a.type !== f.type) out.push(`${name}: class ${a.type} != ${f.type}`)
    if (JSON.stringify(a.lookup_types) !== JSON.stringify(f.lookup_types)) out.push(`${name}: lookups ${JSON.stringify(a.lookup_types)} != ${JSON.stringify(f.lookup_types)}`)
    if (JSON.stringify(values(a.choices as { value: unknown }[] | undefined)) !== JSON.stringify(values(f.choices))) out.push(`${name}: choice values differ`)
  }
  return out
}

const endpoints = catalogue.resources.filter((x) => x.api && reference[x.path ?? x.name])

t.test('every database endpoint of the capture has a catalogue entry', async (t) => {
  const ours = new Set(endpoints.map((r) => r.path ?? r.name))
  // Not database resources: the search engine and the page-view counter.
  const elsewhere = new Set(['search', 'increment-event'])
  t.same(Object.keys(reference).filter((n) => !ours.has(n) && !elsewhere.has(n)), [])
})

for (const r of endpoints) {
  const ref = reference[r.path ?? r.name]
  t.test(`OPTIONS of ${r.path ?? r.name} match the reference`, async (t) => {
    const ours = compileDescription(catalogue, r)('List')
    t.equal(ours.name, ref.name, 'name')
    t.same(ours.ordering, ref.ordering, 'ordering')
    t.same(filterDiff(ours.filters as Record<string, FilterDescription> | undefined, ref.filters), [], 'filters: class, lookups and choice values')
    const post = (ours.actions as { POST?: Record<string, FieldAction> } | undefined)?.POST
    t.same(actionDiff(post, ref.actions?.POST ?? {}), [], 'actions: fields, types, flags, limits, choices and nested children')
  })
}

t.test('the detail description says Instance and offers PUT where updates are allowed', async (t) => {
  t.equal(compileDescription(catalogue, catalogue.get('courts'))('Instance').name, 'Court Instance')
  t.ok(compileDescription(catalogue, catalogue.get('alerts'))('Instance').actions, 'alerts can be updated')
  t.notOk(compileDescription(catalogue, catalogue.get('prayers'))('Instance').actions, 'prayers cannot be updated')
})
