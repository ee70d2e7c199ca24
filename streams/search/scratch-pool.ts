/**
 * The scratch buffers of the indexer's write path (index-rows.ts, batch-postings.ts,
 * native-writer.ts): pools of typed arrays and byte buffers that one batch borrows and a later one
 * reuses, and the growable array built on them.
 */

/**
 * Scratch buffers reused from one toIndexRows call to the next (it is synchronous, so they are
 * never shared): a batch's intermediate postings would otherwise allocate some 50 MB of array
 * buffers, and its String columns megabytes more, and V8 answers that much new external memory
 * with full collections of the heap. `take` lends the smallest kept buffer that is long enough.
 * What is kept is bounded in count and in bytes: without the byte bound a catch-up of long
 * opinions kept about 800 MB of buffers sized for its largest chunks. And it is let go when the
 * indexer has been idle for IDLE_RELEASE_MS: after a first start's catch-up the pools held 65 MB
 * that an idle process never used again (a heap snapshot of `bench/idle.ts --heap-snapshot`).
 */
export function scratchPool<T extends { length: number; byteLength: number }>(limit: number, limitBytes: number, make: (n: number) => T, later: Later = unrefTimeout) {
  let kept: T[] = []
  let bytes = 0
  let used = false
  let waiting = false
  // One timer while something is kept, not an interval: an idle process with an empty pool never
  // wakes for it. A pool in use is checked once per period, not timed on every take.
  const releaseWhenIdle = () => {
    waiting = true
    later(() => {
      waiting = false
      if (used) { used = false; releaseWhenIdle(); return }
      kept = []
      bytes = 0
    }, IDLE_RELEASE_MS)
  }
  return {
    take(n: number): T {
      used = true
      let best = -1
      for (let i = 0; i < kept.length; i++) if (kept[i].length >= n && (best < 0 || kept[i].length < kept[best].length)) best = i
      if (best < 0) return make(n)
      const a = kept[best]
      kept[best] = kept[kept.length - 1]
      kept.pop()
      bytes -= a.byteLength
      return a
    },
    give(a: T): void {
      if (kept.length >= limit || bytes + a.byteLength > limitBytes) return
      kept.push(a)
      bytes += a.byteLength
      if (!waiting) releaseWhenIdle()
    },
    /** Bytes kept for reuse now. */
    get keptBytes() { return bytes },
  }
}

/** How long the pools keep their buffers with nothing taken from them. */
export const IDLE_RELEASE_MS = 30_000

/** Runs `fn` after `ms` (a test passes its own, to step time by hand). */
export type Later = (fn: () => void, ms: number) => void
const unrefTimeout: Later = (fn, ms) => { setTimeout(fn, ms).unref() }

const arrayPool = scratchPool<Uint32Array>(256, 192 << 20, (n) => new Uint32Array(n))
export const bytePool = scratchPool<Buffer>(16, 64 << 20, (n) => Buffer.allocUnsafeSlow(Math.max(n, 4096)))
export const take = arrayPool.take
export const give = arrayPool.give

export function takeBytes(n: number, lent: Buffer[]): Buffer {
  const b = bytePool.take(n)
  lent.push(b)
  return b
}

/** A growable typed array of unsigned 32-bit integers. */
export class U32 {
  a = take(1024)
  n = 0
  push(v: number): void {
    if (this.n === this.a.length) this.reserve(1)
    this.a[this.n++] = v
  }
  /** Room for k more values. */
  reserve(k: number): void {
    if (this.n + k <= this.a.length) return
    const b = take(Math.max(this.n + k, this.a.length * 2))
    b.set(this.a.subarray(0, this.n))
    give(this.a)
    this.a = b
  }
  release(): void { give(this.a) }
}
