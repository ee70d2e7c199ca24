/**
 * Stored queries indexed for percolation: which of many queries (search alerts) does a new
 * document match? Each query is compiled over its type's vocabulary (percolate-terms.ts: an id per
 * token, prefix and value some query asks for) into a program over a batch's rows of bits
 * (percolate-program.ts, percolate-batch.ts), and filed under its anchors: ids of which a matching
 * document sets at least one. A few documents are tried only against the queries filed under
 * the ids they set (plus the few with no anchor: filters only, negations); a large batch sets
 * the ids of most queries anyway, so then every query of the type runs, in the order its
 * program is stored. Either way a query runs once for the whole batch.
 */
import type { Node } from './ast.js'
import type { SearchType } from './fields.js'
import type { AnalyzedDoc } from './document.js'
import type { Matcher } from './matcher.js'
import { Batch, BATCH } from './percolate-batch.js'
import { compileQuery, ProgramEnv, run } from './percolate-program.js'
import { IdPool, Vocabulary } from './percolate-terms.js'

export interface StoredQuery { readonly id: number; readonly type: SearchType; readonly ast: Node; readonly matches: Matcher }

/**
 * The stored queries of one search type, by slot (a small integer, reused): each slot's program
 * in one code array, with its query, the ids it is filed under and the number of the last
 * batch it ran on.
 */
class Shelf<Q> {
  readonly vocab: Vocabulary
  code = new Int32Array(1024)
  used = 0
  /** code of removed queries, reclaimed when it is half the array */
  garbage = 0
  at: Int32Array = new Int32Array(64).fill(-1)
  length = new Int32Array(64)
  tried = new Int32Array(64)
  readonly queries: (Q | undefined)[] = []
  readonly anchors: (readonly number[] | null)[] = []
  readonly releases: ((() => void) | undefined)[] = []
  /** slots in use, and the number of slots ever used */
  live = 0
  slots = 0
  private readonly free: number[] = []
  /** id → slots filed under it */
  readonly filed: (number[] | undefined)[] = []
  readonly unanchored = new Set<number>()

  constructor(type: SearchType, pool: IdPool) {
    this.vocab = new Vocabulary(type, pool)
  }

  add(q: Q, code: readonly number[], anchors: readonly number[] | null, release: () => void): number {
    const slot = this.free.pop() ?? this.slots++
    if (slot >= this.at.length) this.growSlots()
    if (this.used + code.length > this.code.length) this.growCode(code.length)
    this.code.set(code, this.used)
    this.at[slot] = this.used
    this.length[slot] = code.length
    this.used += code.length
    this.queries[slot] = q
    this.anchors[slot] = anchors
    this.releases[slot] = release
    this.live++
    if (!anchors) this.unanchored.add(slot)
    else for (const id of anchors) (this.filed[id] ??= []).push(slot)
    return slot
  }

  remove(slot: number): void {
    const anchors = this.anchors[slot]
    if (!anchors) this.unanchored.delete(slot)
    else {
      for (const id of anchors) {
        const list = this.filed[id]!
        list[list.indexOf(slot)] = list[list.length - 1]
        list.pop()
        if (!list.length) this.filed[id] = undefined
      }
    }
    // After unfiling: a released id may be handed to another query at once.
    this.releases[slot]!()
    this.garbage += this.length[slot]
    this.at[slot] = -1
    this.queries[slot] = undefined
    this.anchors[slot] = null
    this.releases[slot] = undefined
    this.live--
    this.free.push(slot)
  }

  private growSlots(): void {
    const n = this.at.length * 2
    const at = new Int32Array(n).fill(-1)
    at.set(this.at)
    const length = new Int32Array(n)
    length.set(this.length)
    this.at = at
    this.length = length
    this.tried = new Int32Array(n)
  }

  /** Room for `more` integers of code: removed programs' code dropped first if it is half the array. */
  private growCode(more: number): void {
    const keep = this.used - this.garbage
    const code = new Int32Array(Math.max(1024, 2 * (keep + more)))
    let used = 0
    for (let s = 0; s < this.slots; s++) {
      if (this.at[s] < 0) continue
      code.set(this.code.subarray(this.at[s], this.at[s] + this.length[s]), used)
      this.at[s] = used
      used += this.length[s]
    }
    this.code = code
    this.used = used
    this.garbage = 0
  }
}

/**
 * A batch's matches: the queries that matched and their documents' bits, kept in buffers while
 * the queries run, then spread into one array per document, each allocated at its final size
 * (pushing ~1,000 queries into each of 500 growing arrays cost as much as running the queries).
 * The bits are kept by word (32 documents), so that spreading them writes into 32 arrays at a time.
 */
class Hits<Q> {
  /** per word of documents: (slot, bits) pairs of the queries with a match there */
  private readonly byWord = Array.from({ length: BATCH >>> 5 }, () => new Int32Array(1 << 12))
  private readonly used = new Int32Array(BATCH >>> 5)
  private readonly counts = new Int32Array(BATCH)

  reset(size: number): void {
    this.used.fill(0)
    this.counts.fill(0, 0, size)
  }

  /** Notes that the query in `slot` matched the documents at `at` in the batch's memory (none when -1). */
  note(slot: number, at: number, b: Batch): void {
    if (at < 0) return
    const { mem, words } = b
    const { counts, used } = this
    for (let w = 0; w < words; w++) {
      let word = mem[at + w]
      if (!word) continue
      let list = this.byWord[w]
      if (used[w] + 2 > list.length) {
        const grown = new Int32Array(2 * list.length)
        grown.set(list)
        this.byWord[w] = list = grown
      }
      list[used[w]] = slot
      list[used[w] + 1] = word
      used[w] += 2
      while (word) {
        counts[(w << 5) + (31 - Math.clz32(word & -word))]++
        word &= word - 1
      }
    }
  }

  /** Puts the queries of each of the batch's `size` documents in out[start + i]. */
  fill(shelf: Shelf<Q>, out: Q[][], start: number, size: number): void {
    const { counts, used } = this
    const queries = shelf.queries
    const lists: Q[][] = []
    for (let i = 0; i < size; i++) {
      lists.push(new Array<Q>(counts[i]))
      counts[i] = 0
    }
    for (let w = 0; w < used.length; w++) {
      const list = this.byWord[w]
      for (let r = 0; r < used[w]; r += 2) {
        const q = queries[list[r]]!
        let word = list[r + 1]
        while (word) {
          const i = (w << 5) + (31 - Math.clz32(word & -word))
          lists[i][counts[i]++] = q
          word &= word - 1
        }
      }
    }
    for (let i = 0; i < size; i++) out[start + i] = lists[i]
  }
}

export interface QueryIndex<Q extends StoredQuery> {
  add(q: Q): void
  remove(id: number): void
  get(id: number): Q | undefined
  /** The stored queries of the document's type that it matches. */
  match(type: SearchType, doc: AnalyzedDoc): Q[]
  /** For each document (all of this type), the stored queries it matches: a batch at a time, much cheaper per document. */
  matchBatch(type: SearchType, docs: readonly AnalyzedDoc[]): Q[][]
  readonly size: number
}

export function createQueryIndex<Q extends StoredQuery>(): QueryIndex<Q> {
  /** query id → its type's shelf and slot */
  const where = new Map<number, { shelf: Shelf<Q>; slot: number }>()
  const pool = new IdPool()
  const env = new ProgramEnv()
  const shelves = new Map<SearchType, Shelf<Q>>()
  const batch = new Batch(pool)
  let batches = 0

  const hits = new Hits<Q>()

  /** Runs over the loaded batch the queries its documents can match, each once, noting their hits. */
  function runBatch(shelf: Shelf<Q>): void {
    hits.reset(batch.docs.length)
    const { touched, touchedCount } = batch
    const { filed, at, tried } = shelf
    // The queries filed under the ids the batch set: when they are most of the shelf, all of them
    // in order is cheaper than finding them.
    let filedHere = 0
    for (let k = 0; k < touchedCount && 2 * filedHere < shelf.live; k++) filedHere += filed[touched[k]]?.length ?? 0
    if (2 * filedHere >= shelf.live) {
      for (let s = 0; s < shelf.slots; s++) if (at[s] >= 0) hits.note(s, run(shelf.code, at[s], batch, env), batch)
      return
    }
    const stamp = ++batches
    for (let k = 0; k < touchedCount; k++) {
      const list = filed[touched[k]]
      if (!list) continue
      for (let j = 0; j < list.length; j++) {
        const s = list[j]
        if (tried[s] === stamp) continue
        tried[s] = stamp
        hits.note(s, run(shelf.code, at[s], batch, env), batch)
      }
    }
    for (const s of shelf.unanchored) hits.note(s, run(shelf.code, at[s], batch, env), batch)
  }

  const index: QueryIndex<Q> = {
    add(q) {
      index.remove(q.id)
      let shelf = shelves.get(q.type)
      if (!shelf) shelves.set(q.type, (shelf = new Shelf<Q>(q.type, pool)))
      const c = compileQuery(q.ast, q.type, shelf.vocab, env)
      batch.reserve(c.depth)
      where.set(q.id, { shelf, slot: shelf.add(q, c.code, c.anchors, c.release) })
    },
    remove(id) {
      const w = where.get(id)
      if (!w) return
      where.delete(id)
      w.shelf.remove(w.slot)
    },
    get(id) {
      const w = where.get(id)
      return w && w.shelf.queries[w.slot]
    },
    match(type, doc) {
      return index.matchBatch(type, [doc])[0]
    },
    matchBatch(type, docs) {
      const shelf = shelves.get(type)
      if (!shelf || !shelf.live) return docs.map(() => [])
      const out: Q[][] = new Array<Q[]>(docs.length)
      try {
        for (let start = 0; start < docs.length; start += BATCH) {
          batch.load(shelf.vocab, start === 0 && docs.length <= BATCH ? docs : docs.slice(start, start + BATCH))
          runBatch(shelf)
          hits.fill(shelf, out, start, batch.docs.length)
        }
      } finally {
        batch.clear()
      }
      return out
    },
    get size() { return where.size },
  }
  return index
}
