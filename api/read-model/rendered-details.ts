/**
 * Rendered details: the v4 detail JSON of the resources that declare `renderedDetail`, built once
 * when their rows change instead of on every request. A detail GET of a random docket otherwise
 * costs a row decode, a read per related set, ~60 field renderers and a serialization (~90 µs);
 * with its text kept in the read model it costs one LMDB read.
 *
 * What a detail shows is built from other rows too (a docket lists its clusters, embeds its
 * originating-court row). Rendering goes through a row source that records every row and every ref
 * set it reads, with their versions; the store keeps the reverse of that (dependents), so applying
 * a change to any of them marks the detail stale in the same transaction (store.ts `apply`), which
 * also drops its text: a request never gets a text older than the rows, it builds the detail
 * itself until the text is rendered again. A text is stored only if nothing it read changed
 * between reading and storing (checked inside the write transaction), so a change that lands
 * while it renders is never lost, whichever API process of the host applied it.
 *
 * Texts are rendered with ORIGIN_MARK where the request's origin goes (absolute URLs); a detail built
 * from data that holds the mark is not rendered (served as before).
 */
import fastJsonStringify from 'fast-json-stringify'
import type { Catalogue } from '../../schemas/catalogue/index.js'
import type { ResourceDef } from '../../schemas/define.js'
import type { Db } from '../../core/clickhouse.js'
import type { Logger } from '../../core/logger.js'
import type { Serializer } from '../engine/serialize.js'
import type { RequestContext } from '../engine/context.js'
import { readModelSource, type RowSource } from '../engine/source.js'
import { resourceSchema } from '../../schemas/json-schema.js'
import type { ReadStore, RenderedDetail, RefColumns } from './store.js'

/**
 * Stands for the request's origin in a rendered text. A valid URI prefix (URL fields are checked as
 * URIs where a schema offers several shapes: `lds-o:/api/rest/…` is one) that data does not hold,
 * and short: a docket's text holds it about 7 times, and at 34 characters (an origin under a
 * reserved domain, before) half the texts of a 1M-docket store went past LMDB's 2 KB node size
 * into overflow pages, a second page read per detail.
 */
export const ORIGIN_MARK = 'lds-o:'

/**
 * How many stale details one round renders before storing them (one write transaction). A round
 * holds the event loop (~10 ms); requests are served between rounds.
 */
const ROUND = 100

/**
 * Resources whose v4 detail the read model keeps rendered: those that ask for it, whose objects are
 * the same for every caller (not per-user rows) and that have a table of their own (not views).
 */
function renderable(cat: Catalogue): ResourceDef[] {
  return cat.resources.filter((r) => r.renderedDetail && r.api && r.access !== 'owner' && r.access !== 'published' && cat.storageOf(r).name === r.name)
}

export function renderedResourcesOf(cat: Catalogue): Set<string> {
  return new Set(renderable(cat).map((r) => r.name))
}

/** A rendered text for a request from `origin`. */
export const withOrigin = (text: string, origin: string) => text.replaceAll(ORIGIN_MARK, origin)

let lastOrigin = ''
let lastOriginLatin1 = ''

/**
 * A rendered text for a request from `origin`, as a latin1 string: one character per byte of the
 * UTF-8 answer (the origin's UTF-8 bytes where the mark is), to be written with the 'latin1'
 * encoding. Neither the text nor the answer is decoded or encoded as UTF-8: one copy to a one-byte
 * string, V8's replaceAll, and the socket write takes the characters as bytes (half the CPU of
 * finding the marks and copying around them in a Buffer). The mark is ASCII, so it never matches
 * inside a multi-byte character.
 */
export function withOriginLatin1(text: Buffer, origin: string): string {
  // Nearly every request of a process comes through one origin: its bytes are kept.
  if (origin !== lastOrigin) { lastOriginLatin1 = Buffer.from(origin).toString('latin1'); lastOrigin = origin }
  return text.toString('latin1').replaceAll(ORIGIN_MARK, lastOriginLatin1)
}

/** withOrigin on bytes: the answer's bytes, never decoded to a string and encoded again as UTF-8. */
export const withOriginBytes = (text: Buffer, origin: string): Buffer => Buffer.from(withOriginLatin1(text, origin), 'latin1')

export interface DetailRenderer {
  /** Renders every stale detail; concurrent calls share one run (it runs again if asked meanwhile). */
  drain(): Promise<void>
  /** Ends a run in progress after its current round (what is left stays stale, rendered after a restart). */
  stop(): Promise<void>
}

export function createDetailRenderer(deps: {
  store: ReadStore; catalogue: Catalogue; serializers: Map<string, Serializer>; refColumns: RefColumns; db: Db; log: Logger
}): DetailRenderer {
  const { store, catalogue: cat } = deps
  const byName = new Map(renderable(cat).map((r) => [r.name, r]))
  const stringify = new Map<string, (obj: unknown) => string>()
  const stringifierOf = (r: ResourceDef) => {
    let s = stringify.get(r.name)
    if (!s) { s = fastJsonStringify(resourceSchema(cat, r, { version: 'v4', partial: true }) as never) as (obj: unknown) => string; stringify.set(r.name, s) }
    return s
  }
  /**
   * Resources found to read something the read model does not hold (a related set it does not
   * index, a row of a resource with large texts, which it stores without them): not rendered.
   */
  const refused = new Set<string>()
  let failures = 0

  async function render(resource: string, key: string | number): Promise<RenderedDetail> {
    const rows: RenderedDetail['rows'][number][] = []
    const refs: RenderedDetail['refs'][number][] = []
    const r = byName.get(resource)
    const own = store.stored(resource, key)
    rows.push({ resource, key, v: own?.v ?? -1 })
    if (!r || !own?.row || refused.has(resource)) return { resource, key, rows, refs }
    const read: Record<string, unknown>[] = [own.row]
    // The store as the serializer sees it, recording what it reads.
    const tracking = {
      ...store,
      get(res: string, k: string | number) {
        const s = store.stored(res, k)
        rows.push({ resource: res, key: k, v: s?.v ?? -1 })
        if (s?.row) read.push(s.row)
        return s?.row
      },
      keysWhere(res: string, column: string, value: unknown) {
        // The counter before the keys: a change between the two makes the render look stale, never fresh.
        if (typeof value === 'number' || typeof value === 'string') refs.push({ resource: res, column, value, version: store.refSetVersion(res, column, value) })
        return store.keysWhere(res, column, value)
      },
    } as ReadStore
    const outside: RowSource = {
      byKeys: async () => { throw new Outside() },
      byColumn: async () => { throw new Outside() },
    }
    const ctx: RequestContext = {
      db: deps.db, catalogue: cat, origin: ORIGIN_MARK, version: 'v4', user: null,
      source: readModelSource(tracking, deps.refColumns, outside, () => true, cat),
    }
    try {
      const [obj] = await deps.serializers.get(r.name)!([own.row], ctx)
      // Data that holds the mark itself would be taken for the origin.
      if (read.some((row) => JSON.stringify(row).includes(ORIGIN_MARK))) return { resource, key, rows, refs }
      return { resource, key, rows, refs, text: stringifierOf(r)(obj) }
    } catch (err) {
      if (err instanceof Outside) {
        refused.add(resource)
        deps.log.warn({ resource }, 'a rendered detail reads rows the read model does not index, or large texts it does not keep: this resource is not rendered')
      } else if (failures++ < 10) {
        deps.log.warn({ resource, key, err: (err as Error).message }, 'a detail could not be rendered: requests build it')
      }
      return { resource, key, rows: rows.slice(0, 1), refs: [] }
    }
  }

  let running: Promise<void> | undefined
  let again = false
  let stopping = false
  async function run() {
    // Rounds until nothing is stale; a round that stores nothing (everything it read kept changing) stops.
    while (!stopping) {
      const stale = store.staleRenders(ROUND)
      if (!stale.length) return
      const items: RenderedDetail[] = []
      for (const { resource, key } of stale) items.push(await render(resource, key))
      if ((await store.putRendered(items)) === 0) return
      await new Promise((resolve) => setImmediate(resolve))
    }
  }
  return {
    async stop() {
      stopping = true
      await running
    },
    drain() {
      if (stopping) return Promise.resolve()
      if (running) { again = true; return running }
      running = (async () => {
        try {
          do { again = false; await run() } while (again && !stopping)
        } catch (err) {
          deps.log.error({ err: (err as Error).message }, 'rendering details failed (requests build them meanwhile)')
        } finally { running = undefined }
      })()
      return running
    },
  }
}

class Outside extends Error {}
