/**
 * Builds response objects from stored rows, compiled once per resource at boot into a list
 * of field steps. Related data (reverse links, nested objects, embedded foreign keys) is read
 * from the context's row source (the read model: no query; ClickHouse without one: one query per
 * field for all rows of the response).
 */
import type { FieldDef, ResourceDef } from '../../schemas/define.js'
import { columnOf } from '../../schemas/define.js'
import { keyed } from '../../schemas/kinds.js'
import { holdsStringKey } from '../../schemas/columns.js'
import type { Catalogue } from '../../schemas/catalogue/index.js'
import { detailUrl, sourceOf, type RequestContext } from './context.js'
import type { Row } from './fetch.js'

export type Serializer = (rows: Row[], ctx: RequestContext, depth?: number) => Promise<Record<string, unknown>[]>
/** Adjusts serialized objects of one resource with data kept outside its table (derived by processors). */
export type Overlay = (objs: Record<string, unknown>[], rows: Row[], ctx: RequestContext) => Promise<void>

export { formatDatetime } from '../../schemas/values.js'

const MAX_EMBED_DEPTH = 3

/** The URL segment of a resource: its path when it has one (`visualizations/json`), else its name. */
const urlName = (cat: Catalogue, name: string) => cat.get(name).path ?? name

/** Keeps the listed keys of an object, in that order (FieldDef.only). */
const keepOnly = (obj: unknown, only: readonly string[] | undefined) => {
  if (!only || obj === null || typeof obj !== 'object') return obj
  const o = obj as Record<string, unknown>
  return Object.fromEntries(only.filter((k) => k in o).map((k) => [k, o[k]]))
}

export function compileSerializer(cat: Catalogue, r: ResourceDef, registry: Map<string, Serializer>, overlay?: Overlay): Serializer {
  const steps = Object.entries(r.fields).filter(([, d]) => !d.hidden && !d.writeOnly)
  const key = r.key
  const renderers = steps.map(([name, d]) => [name, compileRender(cat, r, name, d)] as const)
  // Only these fields read other rows; the rest render from the row alone.
  const relatedSteps = steps.filter(([, d]) => d.kind === 'reverse' || d.kind === 'nested' || (d.kind === 'fk' && d.embed))
  return async (rows, ctx, depth = 0) => {
    if (rows.length === 0) return []
    // One read per related field, for all rows at once.
    const related = new Map<string, Map<unknown, unknown>>()
    if (relatedSteps.length) {
      await Promise.all(relatedSteps.map(async ([name, d]) => {
        if (d.kind === 'reverse') related.set(name, await loadReverse(ctx, cat, d, rows.map((x) => x[key])))
        else if (d.kind === 'nested' && depth < MAX_EMBED_DEPTH) related.set(name, await loadNested(ctx, cat, d, rows.map((x) => x[key]), registry, depth))
        else if (d.kind === 'fk' && d.embed && depth < MAX_EMBED_DEPTH) related.set(name, await loadEmbedded(ctx, cat, d, rows.map((x) => x[columnOf(name, d)]), registry, depth))
      }))
    }
    const objs = rows.map((row) => {
      const out: Record<string, unknown> = {}
      for (const [name, render] of renderers) out[name] = render(ctx, row, related.get(name))
      return out
    })
    if (overlay) await overlay(objs, rows, ctx)
    return objs
  }
}

type FieldRender = (ctx: RequestContext, row: Row, related?: Map<unknown, unknown>) => unknown

/** How one field of a response is built from its row, decided once per field at boot. */
function compileRender(cat: Catalogue, r: ResourceDef, name: string, d: FieldDef): FieldRender {
  switch (d.kind) {
    case 'uri':
      if (name === 'resource_uri') { const seg = r.path ?? r.name; return (ctx, row) => detailUrl(ctx, seg, row[r.key]) }
      return r.absoluteUrl ? (_ctx, row) => r.absoluteUrl!(row) : () => null
    case 'const': return () => structuredClone(d.value)
    case 'fk_id': { const col = `${d.of}_id`; return (_ctx, row) => row[col] ?? null }
    case 'fk': {
      const col = columnOf(name, d)
      const seg = urlName(cat, d.target!)
      return (ctx, row, related) => {
        const id = row[col]
        if (id === null || id === undefined) return null
        if (related) return keepOnly(related.get(id) ?? null, d.only)
        return d.asId ? id : detailUrl(ctx, seg, id)
      }
    }
    case 'm2m': {
      const col = columnOf(name, d)
      const seg = urlName(cat, d.target!)
      return (ctx, row) => ((row[col] as unknown[]) ?? []).map((id) => (d.asId ? id : detailUrl(ctx, seg, id)))
    }
    case 'reverse':
      if (d.single) return (_ctx, row, related) => (related?.get(row[r.key]) as unknown[] | undefined)?.[0] ?? null
      return (_ctx, row, related) => related?.get(row[r.key]) ?? []
    case 'nested':
      if (d.only) return (_ctx, row, related) => ((related?.get(row[r.key]) as unknown[] | undefined) ?? []).map((o) => keepOnly(o, d.only))
      return (_ctx, row, related) => related?.get(row[r.key]) ?? []
    default: {
      const spec = keyed(d.kind, holdsStringKey(cat, r, name))
      return (_ctx, row) => spec.render(row[name])
    }
  }
}

async function loadReverse(ctx: RequestContext, cat: Catalogue, d: FieldDef, keys: unknown[]): Promise<Map<unknown, unknown>> {
  const from = cat.get(d.from ?? d.target!)
  const pick = d.pick ?? from.key
  const rows = await sourceOf(ctx).byColumn(from, d.via!, keys, { columns: [d.via!, pick] })
  const out = new Map<unknown, unknown[]>()
  const seg = urlName(cat, d.target!)
  for (const row of rows) {
    const k = row[d.via!]
    if (!out.has(k)) out.set(k, [])
    out.get(k)!.push(d.asId ? row[pick] : detailUrl(ctx, seg, row[pick]))
  }
  return out
}

async function loadNested(ctx: RequestContext, cat: Catalogue, d: FieldDef, keys: unknown[], registry: Map<string, Serializer>, depth: number) {
  const target = cat.get(d.target!)
  const rows = await sourceOf(ctx).byColumn(target, d.via!, keys)
  const objs = await registry.get(target.name)!(rows, ctx, depth + 1)
  const out = new Map<unknown, unknown[]>()
  rows.forEach((row, i) => {
    const k = row[d.via!]
    if (!out.has(k)) out.set(k, [])
    out.get(k)!.push(objs[i])
  })
  return out
}

async function loadEmbedded(ctx: RequestContext, cat: Catalogue, d: FieldDef, ids: unknown[], registry: Map<string, Serializer>, depth: number) {
  const target = cat.get(d.target!)
  const unique = [...new Set(ids.filter((x) => x !== null && x !== undefined))]
  if (unique.length === 0) return new Map<unknown, unknown>()
  const rows = await sourceOf(ctx).byKeys(target, unique)
  const objs = await registry.get(target.name)!(rows, ctx, depth + 1)
  return new Map<unknown, unknown>(rows.map((row, i) => [row[target.key], objs[i]]))
}

export function compileSerializers(cat: Catalogue, overlays: Record<string, Overlay> = {}): Map<string, Serializer> {
  const registry = new Map<string, Serializer>()
  for (const r of cat.resources) registry.set(r.name, compileSerializer(cat, r, registry, overlays[r.name]))
  return registry
}
