/**
 * A string → id table over typed arrays (open addressing, linear probing), for the percolator's
 * hot loop: every token of every document is looked up once, and most are words no stored query
 * asks for. A Map look-up of a freshly analyzed token costs several cache misses (its hash, the
 * bucket, the key string to compare); here the hash is computed from the characters as they are
 * read (FNV-1a), so the hashes of a token's prefixes come on the way (see `step`) and a prefix is
 * looked up without cutting a string, and keys are compared in one character pool.
 */

export const HASH_START = 0x811c9dc5 | 0

/** The hash after one more character: hash(s + c) from hash(s). */
export function step(h: number, c: number): number {
  return Math.imul(h ^ c, 0x01000193)
}

export function hashOf(s: string): number {
  let h = HASH_START
  for (let i = 0; i < s.length; i++) h = step(h, s.charCodeAt(i))
  return h
}

/** 0 marks an empty slot, so a hash of 0 is stored as 1 (`find` callers fold theirs the same way, see `slotHash`). */
export const slotHash = (h: number): number => h || 1

export class StringTable {
  /** per slot: the key's hash (slotHash), 0 when empty */
  private hashes = new Int32Array(64)
  private ids = new Int32Array(64)
  private starts = new Int32Array(64)
  private lengths = new Int32Array(64)
  private chars = new Uint16Array(256)
  private used = 0
  /** keys in slots, live or dead (a removed key keeps its slot with id -1 until the table is rebuilt) */
  private filled = 0
  private dead = 0

  get size(): number { return this.filled - this.dead }

  /**
   * The id of the key made of the first `length` characters of `s` (whose hash, through `step`,
   * is `h`), or -1.
   */
  find(s: string, h: number, length: number): number {
    const hashes = this.hashes
    const mask = hashes.length - 1
    const want = h || 1
    for (let i = want & mask; ; i = (i + 1) & mask) {
      const at = hashes[i]
      if (at === 0) return -1
      if (at === want && this.lengths[i] === length && this.same(i, s, length)) return this.ids[i]
    }
  }

  private same(slot: number, s: string, length: number): boolean {
    const chars = this.chars
    const start = this.starts[slot]
    for (let k = 0; k < length; k++) if (chars[start + k] !== s.charCodeAt(k)) return false
    return true
  }

  /** Sets (or replaces) the id of `key`. */
  set(key: string, id: number): void {
    if ((this.filled + 1) * 2 > this.hashes.length) this.rebuild(this.hashes.length * 2)
    const h = slotHash(hashOf(key))
    const mask = this.hashes.length - 1
    let i = h & mask
    for (; this.hashes[i] !== 0; i = (i + 1) & mask) {
      if (this.hashes[i] === h && this.lengths[i] === key.length && this.same(i, key, key.length)) {
        if (this.ids[i] < 0) this.dead--
        this.ids[i] = id
        return
      }
    }
    if (this.used + key.length > this.chars.length) {
      const grown = new Uint16Array(Math.max(2 * this.chars.length, this.used + key.length))
      grown.set(this.chars.subarray(0, this.used))
      this.chars = grown
    }
    for (let k = 0; k < key.length; k++) this.chars[this.used + k] = key.charCodeAt(k)
    this.hashes[i] = h
    this.ids[i] = id
    this.starts[i] = this.used
    this.lengths[i] = key.length
    this.used += key.length
    this.filled++
  }

  /** Removes `key` (its slot stays, dead, so probes run on; the table is rebuilt once half of it is dead). */
  delete(key: string): void {
    const h = slotHash(hashOf(key))
    const mask = this.hashes.length - 1
    for (let i = h & mask; this.hashes[i] !== 0; i = (i + 1) & mask) {
      if (this.hashes[i] === h && this.lengths[i] === key.length && this.same(i, key, key.length)) {
        if (this.ids[i] >= 0) { this.ids[i] = -1; this.dead++ }
        break
      }
    }
    if (this.dead > 64 && this.dead * 2 > this.filled) this.rebuild(this.hashes.length)
  }

  /** Copies the live keys into fresh arrays of `slots` slots. */
  private rebuild(slots: number): void {
    const { hashes, ids, starts, lengths, chars } = this
    const live: [string, number][] = []
    let liveChars = 0
    for (let i = 0; i < hashes.length; i++) {
      if (hashes[i] === 0 || ids[i] < 0) continue
      let key = ''
      for (let k = starts[i]; k < starts[i] + lengths[i]; k++) key += String.fromCharCode(chars[k])
      live.push([key, ids[i]])
      liveChars += lengths[i]
    }
    while (live.length * 4 > slots) slots *= 2
    this.hashes = new Int32Array(slots)
    this.ids = new Int32Array(slots)
    this.starts = new Int32Array(slots)
    this.lengths = new Int32Array(slots)
    this.chars = new Uint16Array(Math.max(256, 2 * liveChars))
    this.used = 0
    this.filled = 0
    this.dead = 0
    for (const [k, id] of live) this.set(k, id)
  }
}
