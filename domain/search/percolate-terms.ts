/**
 * The vocabulary of the stored queries of one search type: every token, prefix and value some
 * query asks for gets an integer id (a row of bits in a batch, percolate-batch.ts). A document's
 * token that no query asks for maps to nothing and costs one look-up, so a batch's index holds
 * only what the stored queries can read. Ids are counted by the queries holding them and reused
 * once free, so the rows stay as many as the distinct words in use.
 *
 * A scope is where a token is looked for: the type's default text fields together (an unfielded
 * term), or one text field (a fielded term). Keyword, int, date and bool values have scopes of
 * their own, one per field.
 */
import type { FieldValue } from './document.js'
import { HASH_START, StringTable, hashOf, step } from './percolate-strings.js'
import { searchType, type SearchType } from './fields.js'

/** Integer ids, reused once released: the batch's rows are indexed by them. */
export class IdPool {
  private next = 0
  private readonly free: number[] = []
  /** One more than the largest id ever handed out. */
  get capacity(): number { return this.next }
  take(): number { return this.free.pop() ?? this.next++ }
  give(id: number): void { this.free.push(id) }
}

interface Key { readonly id: number; refs: number }

function acquire<K>(map: Map<K, Key>, k: K, pool: IdPool): { id: number; fresh: boolean } {
  const key = map.get(k)
  if (key) { key.refs++; return { id: key.id, fresh: false } }
  const id = pool.take()
  map.set(k, { id, refs: 1 })
  return { id, fresh: true }
}

/** Drops one reference; whether the key is gone (its id back in the pool). */
function release<K>(map: Map<K, Key>, k: K, pool: IdPool): boolean {
  const key = map.get(k)
  if (!key) throw new Error(`percolator vocabulary: release of ${String(k)} not held`)
  if (--key.refs) return false
  map.delete(k)
  pool.give(key.id)
  return true
}

/** A memo value: the token sets no id. */
export const NOTHING = -2

/**
 * Distinct tokens the memo remembers, at most: past this it starts again empty (it remembers
 * tokens no query reads too, so the documents' own vocabulary would otherwise grow it for ever).
 */
const MEMO_LIMIT = 1 << 18

export class TextScope {
  /** what the batch reads, token → id (the counted keys below are for adding and removing) */
  readonly termTable = new StringTable()
  readonly prefixTable = new StringTable()
  /** the lengths of the prefixes in use, ascending: a token's prefixes are looked up at these lengths only */
  prefixLengths = new Int32Array(0)
  private readonly terms = new Map<string, Key>()
  private readonly prefixes = new Map<string, Key>()
  private readonly lengths = new Map<number, number>()
  /** Stored phrases of two tokens or more over this scope: while there are any, a batch keeps this scope's token ids in order. */
  phrases = 0
  /**
   * The batch's token ids of this scope in document order, document i from starts[i] to
   * starts[i + 1]; -1 for a token no query asks for and between fields and values (so a phrase
   * never spans them). Reused from batch to batch.
   */
  seq = new Int32Array(0)
  starts = new Int32Array(0)
  /**
   * While the scope has prefixes, token → every id it sets, so that a token costs one probe
   * instead of one per prefix length: a value ≥ 0 is its term id alone, NOTHING none, and v ≤ -3
   * the list at lists[-3 - v]: [term id or -1, the number of prefix ids, the prefix ids]. Derived
   * from the terms and prefixes, so emptied whenever they change.
   */
  memo: StringTable | null = null
  lists: number[] = []

  constructor(readonly columns: readonly string[], private readonly pool: IdPool) {}

  get empty(): boolean { return this.terms.size === 0 && this.prefixes.size === 0 }

  term(token: string): number {
    const { id, fresh } = acquire(this.terms, token, this.pool)
    if (fresh) { this.termTable.set(token, id); this.forget() }
    return id
  }

  dropTerm(token: string): void {
    if (release(this.terms, token, this.pool)) { this.termTable.delete(token); this.forget() }
  }

  prefix(p: string): number {
    const { id, fresh } = acquire(this.prefixes, p, this.pool)
    if (fresh) { this.prefixTable.set(p, id); this.changeLength(p.length, 1) }
    return id
  }

  dropPrefix(p: string): void {
    if (release(this.prefixes, p, this.pool)) { this.prefixTable.delete(p); this.changeLength(p.length, -1) }
  }

  private changeLength(length: number, by: number): void {
    const n = (this.lengths.get(length) ?? 0) + by
    if (n) this.lengths.set(length, n)
    else this.lengths.delete(length)
    this.prefixLengths = Int32Array.from([...this.lengths.keys()].sort((a, b) => a - b))
    this.forget()
  }

  private forget(): void {
    this.memo = this.prefixes.size ? new StringTable() : null
    this.lists = []
  }

  /** The memo value of `token` (see memo), remembered. */
  resolve(token: string): number {
    const memo = this.memo!
    if (memo.size >= MEMO_LIMIT) this.forget()
    const lengths = this.prefixLengths
    const found: number[] = []
    let h = HASH_START
    let next = 0
    for (let j = 0; ; j++) {
      while (next < lengths.length && lengths[next] === j) {
        const id = this.prefixTable.find(token, h, j)
        if (id >= 0) found.push(id)
        next++
      }
      if (j === token.length) break
      h = step(h, token.charCodeAt(j))
    }
    const term = this.termTable.find(token, hashOf(token), token.length)
    let v: number
    if (!found.length) v = term >= 0 ? term : NOTHING
    else { v = -3 - this.lists.length; this.lists.push(term, found.length, ...found) }
    this.memo!.set(token, v)
    return v
  }
}

export class ValueScope {
  readonly values = new Map<FieldValue, Key>()
  constructor(readonly column: string, private readonly pool: IdPool) {}
  get empty(): boolean { return this.values.size === 0 }
  value(v: FieldValue): number { return acquire(this.values, v, this.pool).id }
  drop(v: FieldValue): void { release(this.values, v, this.pool) }
}

/** The scopes of one search type. */
export class Vocabulary {
  readonly defaults: TextScope
  readonly columns = new Map<string, TextScope>()
  readonly values = new Map<string, ValueScope>()

  constructor(readonly type: SearchType, private readonly pool: IdPool) {
    this.defaults = new TextScope(searchType(type).defaults.map((f) => f.column), pool)
  }

  /** The default fields' scope (column null) or one text field's. */
  text(column: string | null): TextScope {
    if (column === null) return this.defaults
    let s = this.columns.get(column)
    if (!s) this.columns.set(column, (s = new TextScope([column], this.pool)))
    return s
  }

  value(column: string): ValueScope {
    let s = this.values.get(column)
    if (!s) this.values.set(column, (s = new ValueScope(column, this.pool)))
    return s
  }
}
