/**
 * One character trie of every reporter string (edition keys, variations, law and journal keys and
 * variations), flattened into typed arrays, and the whitespace-tolerant walk that finds, at a text
 * position, every string that starts there (see `walkTrie`).
 */
import type { ReporterString } from './reporter-types.js'

interface TrieNode {
  next: Map<number, TrieNode>
  term: ReporterString | null
}

/** Normalises a data string for the trie: whitespace runs → one space, curly quotes → straight. */
export function normKey(s: string): string {
  return s.replace(/[\u2018\u2019\u02BC]/g, "'").replace(/\s+/g, ' ').trim()
}

function insert(root: TrieNode, key: string, rs: ReporterString) {
  let node = root
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i)
    let nx = node.next.get(c)
    if (!nx) { nx = { next: new Map(), term: null }; node.next.set(c, nx) }
    node = nx
  }
  node.term = rs
}

/** Same set as the regex class `\s`. */
export function isSpaceCode(c: number): boolean {
  if (c > 32 && c < 0xa0) return false
  return c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
}

function foldChar(c: number): number {
  return c === 0x2019 || c === 0x2018 || c === 0x02bc ? 39 : c
}

/** The trie flattened into typed arrays (children as sorted edge lists) for a fast walk. */
export interface CompactTrie {
  edgeStart: Int32Array
  edgeCount: Uint16Array
  edgeChar: Uint16Array
  edgeTo: Int32Array
  /** index into `strings` of the string ending at a node, -1 for none */
  term: Int32Array
  strings: ReporterString[]
  /** node reached from each node by a space edge, -1 for none (cached: it is looked up often) */
  space: Int32Array
}

function compactTrie(root: TrieNode): CompactTrie {
  const nodes: TrieNode[] = []
  const ids = new Map<TrieNode, number>()
  const stack = [root]
  while (stack.length) {
    const n = stack.pop()!
    ids.set(n, nodes.length)
    nodes.push(n)
    for (const c of n.next.values()) stack.push(c)
  }
  let edges = 0
  for (const n of nodes) edges += n.next.size
  const t: CompactTrie = {
    edgeStart: new Int32Array(nodes.length), edgeCount: new Uint16Array(nodes.length),
    edgeChar: new Uint16Array(edges), edgeTo: new Int32Array(edges), term: new Int32Array(nodes.length).fill(-1),
    strings: [], space: new Int32Array(nodes.length).fill(-1),
  }
  let e = 0
  nodes.forEach((n, id) => {
    t.edgeStart[id] = e
    t.edgeCount[id] = n.next.size
    for (const [c, child] of [...n.next].sort((a, b) => a[0] - b[0])) {
      t.edgeChar[e] = c
      t.edgeTo[e] = ids.get(child)!
      if (c === 32) t.space[id] = ids.get(child)!
      e++
    }
    if (n.term) { t.term[id] = t.strings.length; t.strings.push(n.term) }
  })
  return t
}

/** The trie of `strings`, each keyed by its `text`. */
export function buildTrie(strings: Iterable<ReporterString>): CompactTrie {
  const root: TrieNode = { next: new Map(), term: null }
  for (const rs of strings) insert(root, rs.text, rs)
  return compactTrie(root)
}

function child(t: CompactTrie, node: number, c: number): number {
  let lo = t.edgeStart[node]
  let hi = lo + t.edgeCount[node]
  if (hi - lo <= 8) {
    for (; lo < hi; lo++) { const x = t.edgeChar[lo]; if (x === c) return t.edgeTo[lo]; if (x > c) return -1 }
    return -1
  }
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    const x = t.edgeChar[mid]
    if (x === c) return t.edgeTo[mid]
    if (x < c) lo = mid + 1
    else hi = mid
  }
  return -1
}

/** Reusable result buffer of `walkTrie`: `n` hits, `end[k]` text index after hit k, `rs[k]` its string. */
export interface TrieHits { n: number; end: Int32Array; rs: ReporterString[] }
export const newHits = (): TrieHits => ({ n: 0, end: new Int32Array(64), rs: new Array(64) })

/**
 * Every trie string that matches `text` starting at `pos`, longest first, into `out`.
 * Whitespace in a key matches one or more whitespace characters; right after a '.' a key's space
 * may be missing from the text ('S.Ct.' finds 'S. Ct.') and a space in the text may be missing
 * from the key ('F. Supp.3d' finds 'F.Supp.3d').
 */
export function walkTrie(t: CompactTrie, text: string, pos: number, out: TrieHits): void {
  out.n = 0
  visit(t, text, pos, 0, pos, false, 0, out)
  const n = out.n
  if (n > 1) {
    // insertion sort by end, descending; drop duplicates reached through different whitespace paths
    for (let a = 1; a < n; a++) {
      const e = out.end[a]
      const r = out.rs[a]
      let b = a - 1
      while (b >= 0 && out.end[b] < e) { out.end[b + 1] = out.end[b]; out.rs[b + 1] = out.rs[b]; b-- }
      out.end[b + 1] = e
      out.rs[b + 1] = r
    }
    let w = 1
    for (let a = 1; a < n; a++) if (out.end[a] !== out.end[w - 1] || out.rs[a] !== out.rs[w - 1]) { out.end[w] = out.end[a]; out.rs[w] = out.rs[a]; w++ }
    out.n = w
  }
}

function push(out: TrieHits, end: number, rs: ReporterString) {
  if (out.n < out.end.length) { out.end[out.n] = end; out.rs[out.n] = rs; out.n++ }
}

function visit(t: CompactTrie, text: string, pos: number, node: number, i: number, prevDot: boolean, depth: number, out: TrieHits): void {
  const n = text.length
  for (;;) {
    const term = t.term[node]
    if (term >= 0 && i > pos) push(out, i, t.strings[term])
    if (i >= n || depth > 80) return
    const raw = text.charCodeAt(i)
    if (raw === 32 || isSpaceCode(raw)) {
      let j = i + 1
      while (j < n && isSpaceCode(text.charCodeAt(j))) j++
      const sp = t.space[node]
      if (sp >= 0) { node = sp; i = j; prevDot = false; depth++; continue }
      if (prevDot && j < n) {
        const c2 = foldChar(text.charCodeAt(j))
        const nx = child(t, node, c2)
        if (nx >= 0) { node = nx; i = j + 1; prevDot = c2 === 46; depth++; continue }
      }
      return
    }
    const c = raw === 0x2019 || raw === 0x2018 || raw === 0x02bc ? 39 : raw
    const nx = child(t, node, c)
    if (prevDot) {
      const sp = t.space[node]
      const nx2 = sp >= 0 ? child(t, sp, c) : -1
      if (nx2 >= 0) {
        if (nx >= 0) visit(t, text, pos, nx, i + 1, c === 46, depth + 1, out)
        node = nx2; i = i + 1; prevDot = c === 46; depth += 2; continue
      }
    }
    if (nx < 0) return
    node = nx; i = i + 1; prevDot = c === 46; depth++
  }
}
