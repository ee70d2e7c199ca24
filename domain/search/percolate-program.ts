/**
 * Stored queries as programs over a batch's rows of bits (percolate-batch.ts). A query compiles
 * once into a few integers of a stack machine (all queries' programs side by side in one
 * Int32Array), so that running 100,000 of them over a batch reads memory in order instead of
 * walking 100,000 trees of closures. Each stack entry is the offset of a set of documents in the
 * batch's memory (a row, read only, or the scratch slot of that stack position), or -1 for none.
 *
 * A term, prefix or value is its row; AND / OR / NOT are word-wise operations; a phrase ANDs its
 * tokens' rows and then looks for the tokens in order in the batch's token ids. What bits cannot
 * decide (proximity, ranges, keyword prefixes) the query's own matcher (matcher.ts) decides, a
 * document at a time, on the documents the bits leave: the answer is always the matcher's.
 */
import type { Node } from './ast.js'
import type { FieldValue } from './document.js'
import { searchType, type SearchType, type SearchTypeSpec } from './fields.js'
import { compileMatcher, fieldOf, textFieldsOf, type Matcher } from './matcher.js'
import type { Batch } from './percolate-batch.js'
import type { TextScope, Vocabulary } from './percolate-terms.js'

// Instructions (operands follow the code).
/** ROW id: push the row of id */
const ROW = 1
/** ALL: push every document */
const ALL = 2
/** NONE: push no document */
const NONE = 3
/** AND n: pop n sets, push their intersection */
const AND = 4
/** OR n: pop n sets, push their union */
const OR = 5
/** NOT: replace the top with its complement */
const NOT = 6
/** AND_NOT: pop y, replace the top x with x − y */
const AND_NOT = 7
/** CHECK k: keep in the top the documents the k-th matcher accepts */
const CHECK = 8
/** PHRASE scope n id…: push the documents holding the n ids one after the other in that scope */
const PHRASE = 9
const END = 10

/** Matchers (CHECK) and scopes (PHRASE) the programs name by number. */
export class ProgramEnv {
  readonly checks: (Matcher | undefined)[] = []
  readonly scopes: TextScope[] = []
  private readonly freeChecks: number[] = []

  addCheck(m: Matcher): number {
    const k = this.freeChecks.pop() ?? this.checks.length
    this.checks[k] = m
    return k
  }

  dropCheck(k: number): void {
    this.checks[k] = undefined
    this.freeChecks.push(k)
  }

  scope(s: TextScope): number {
    const k = this.scopes.indexOf(s)
    return k >= 0 ? k : this.scopes.push(s) - 1
  }
}

export interface CompiledQuery {
  readonly code: readonly number[]
  /**
   * Ids a matching document sets, at least one of them (null: there is no such set, the query is
   * run on every batch); empty for a query that matches nothing.
   */
  readonly anchors: readonly number[] | null
  /** Stack entries (scratch slots) the program uses. */
  readonly depth: number
  /** Gives back the vocabulary ids and matchers the query holds. */
  release(): void
}

/** Compiles a parsed query over the vocabulary of its type, taking ids for its tokens, prefixes and values. */
export function compileQuery(ast: Node, type: SearchType, vocab: Vocabulary, env: ProgramEnv): CompiledQuery {
  const c = new Compiler(searchType(type), type, vocab, env)
  const { anchors } = c.node(ast)
  c.code.push(END)
  const held = c.held
  let released = false
  return {
    code: c.code, anchors, depth: c.depth,
    release() {
      if (released) return
      released = true
      for (const r of held) r()
    },
  }
}

interface Emitted {
  anchors: number[] | null
  /** a value anchor: an AND's last choice (half the documents may hold a court) */
  weak?: boolean
}

class Compiler {
  readonly code: number[] = []
  readonly held: (() => void)[] = []
  /** stack entries now, and at most */
  private sp = 0
  depth = 0

  constructor(private readonly spec: SearchTypeSpec, private readonly type: SearchType, private readonly vocab: Vocabulary, private readonly env: ProgramEnv) {}

  private push(...ops: number[]): void {
    this.code.push(...ops)
  }

  /** Notes the stack after an instruction: `by` entries more (negative: fewer). */
  private moved(by: number): void {
    this.sp += by
    if (this.sp > this.depth) this.depth = this.sp
  }

  private row(id: number, weak = false): Emitted {
    this.push(ROW, id)
    this.moved(1)
    return { anchors: [id], weak }
  }

  private check(node: Node): void {
    const k = this.env.addCheck(compileMatcher(node, this.type))
    this.held.push(() => this.env.dropCheck(k))
    this.push(CHECK, k)
  }

  /** Decided by the matcher alone, a document at a time. */
  private docwise(node: Node): Emitted {
    this.push(ALL)
    this.moved(1)
    this.check(node)
    return { anchors: null }
  }

  private textScope(field: string | null): TextScope {
    return this.vocab.text(field === null ? null : textFieldsOf(this.spec, field)[0].column)
  }

  private term(scope: TextScope, token: string): number {
    const id = scope.term(token)
    this.held.push(() => scope.dropTerm(token))
    return id
  }

  /** Whether the matcher alone decides `n` (an AND runs those last, on what its other children leave). */
  private static docwiseOnly(n: Node, spec: SearchTypeSpec): boolean {
    return n.kind === 'range' || (n.kind === 'prefix' && n.field !== null && fieldOf(spec, n.field).kind === 'keyword') || (n.kind === 'phrase' && n.tokens.length === 0)
  }

  node(node: Node): Emitted {
    switch (node.kind) {
      case 'all': this.push(ALL); this.moved(1); return { anchors: null }
      case 'none': this.push(NONE); this.moved(1); return { anchors: [] }
      case 'term': return this.row(this.term(this.textScope(node.field), node.token))
      case 'prefix': {
        if (Compiler.docwiseOnly(node, this.spec)) return this.docwise(node)
        const scope = this.textScope(node.field)
        const p = node.prefix
        const id = scope.prefix(p)
        this.held.push(() => scope.dropPrefix(p))
        return this.row(id)
      }
      case 'value': {
        const scope = this.vocab.value(fieldOf(this.spec, node.field).column)
        const v = node.value as FieldValue
        const id = scope.value(v)
        this.held.push(() => scope.drop(v))
        return this.row(id, true)
      }
      case 'range': return this.docwise(node)
      case 'phrase': {
        // An empty phrase is the matcher's alone (it matches nothing, or with a slop everything).
        if (node.tokens.length === 0) return this.docwise(node)
        const scope = this.textScope(node.field)
        const ids = node.tokens.map((t) => this.term(scope, t))
        if (ids.length === 1) { this.push(ROW, ids[0]); this.moved(1); return { anchors: [ids[0]] } }
        if (node.slop === undefined) {
          scope.phrases++
          this.held.push(() => { scope.phrases-- })
          this.push(PHRASE, this.env.scope(scope), ids.length, ...ids)
          this.moved(1)
        } else {
          // Every token in the scope is necessary; the matcher decides the window.
          const distinct = [...new Set(ids)]
          for (const id of distinct) { this.push(ROW, id); this.moved(1) }
          if (distinct.length > 1) { this.push(AND, distinct.length); this.moved(1 - distinct.length) }
          this.check(node)
        }
        return { anchors: [ids[0]] }
      }
      case 'and': {
        // Bits first (positive, then negated), the matcher last and only on what they leave.
        const positive = node.children.filter((c) => c.kind !== 'not' && !Compiler.docwiseOnly(c, this.spec))
        const negated = node.children.filter((c) => c.kind === 'not')
        const docwise = node.children.filter((c) => Compiler.docwiseOnly(c, this.spec))
        let anchors: number[] | null = null
        let weak = true
        for (const c of positive) {
          const e = this.node(c)
          if (!e.anchors) continue
          const better = !anchors || (weak && !e.weak) || (weak === !!e.weak && e.anchors.length < anchors.length)
          if (better) { anchors = e.anchors; weak = !!e.weak }
        }
        if (positive.length === 0) { this.push(ALL); this.moved(1) } else if (positive.length > 1) { this.push(AND, positive.length); this.moved(1 - positive.length) }
        for (const c of negated) {
          this.node((c as Extract<Node, { kind: 'not' }>).child)
          this.push(AND_NOT)
          this.moved(-1)
        }
        for (const c of docwise) this.check(c)
        return { anchors, weak }
      }
      case 'or': {
        let anchors: number[] | null = []
        for (const c of node.children) {
          const e = this.node(c)
          anchors = anchors && e.anchors ? [...anchors, ...e.anchors] : null
        }
        if (node.children.length !== 1) { this.push(OR, node.children.length); this.moved(1 - node.children.length) }
        return { anchors: anchors && [...new Set(anchors)] }
      }
      case 'not': {
        this.node(node.child)
        this.push(NOT)
        return { anchors: null }
      }
    }
  }
}

/** Runs the program at code[pc] over the batch: the offset of the documents it matches in b.mem, or -1. */
export function run(code: Int32Array, pc: number, b: Batch, env: ProgramEnv): number {
  const { mem, words, stack } = b
  let sp = 0
  for (;;) {
    switch (code[pc++]) {
      case ROW: {
        // An empty row stays an offset (a set of no document): cheaper than asking whether the batch set it.
        stack[sp++] = code[pc++] * words
        break
      }
      case ALL: stack[sp] = b.all(sp); sp++; break
      case NONE: stack[sp++] = -1; break
      case AND: {
        const n = code[pc++]
        sp -= n
        let empty = false
        for (let k = 0; k < n; k++) if (stack[sp + k] < 0) { empty = true; break }
        if (empty) { stack[sp++] = -1; break }
        const out = b.scratch(sp)
        let any = and2(mem, out, stack[sp], stack[sp + 1], words)
        for (let k = 2; k < n && any; k++) any = andInto(mem, out, stack[sp + k], words)
        stack[sp++] = any ? out : -1
        break
      }
      case OR: {
        const n = code[pc++]
        sp -= n
        const out = b.scratch(sp)
        let result = -1
        for (let k = 0; k < n; k++) {
          const r = stack[sp + k]
          if (r < 0) continue
          if (result < 0) {
            // A lone row is the answer as it is; a slot of a later stack position is copied (the next push reuses it).
            if (r === out || b.isRow(r)) result = r
            else { copy(mem, out, r, words); result = out }
          } else {
            if (result !== out) { copy(mem, out, result, words); result = out }
            orInto(mem, out, r, words)
          }
        }
        stack[sp++] = result
        break
      }
      case NOT: {
        const x = stack[sp - 1]
        const out = b.scratch(sp - 1)
        if (x === out) stack[sp - 1] = b.complement(out) ? out : -1
        else { b.all(sp - 1); stack[sp - 1] = x < 0 || andNotInto(mem, out, x, words) ? out : -1 }
        break
      }
      case AND_NOT: {
        const y = stack[--sp]
        const x = stack[sp - 1]
        if (x < 0 || y < 0) break
        const out = b.scratch(sp - 1)
        if (x !== out) copy(mem, out, x, words)
        stack[sp - 1] = andNotInto(mem, out, y, words) ? out : -1
        break
      }
      case CHECK: {
        const m = env.checks[code[pc++]]!
        const x = stack[sp - 1]
        if (x < 0) break
        const out = b.scratch(sp - 1)
        if (x !== out) copy(mem, out, x, words)
        stack[sp - 1] = b.filter(m, out) ? out : -1
        break
      }
      case PHRASE: {
        const scope = env.scopes[code[pc++]]
        const n = code[pc++]
        const from = pc
        pc += n
        const out = b.scratch(sp)
        let any = and2(mem, out, code[from] * words, code[from + 1] * words, words)
        for (let k = 2; k < n && any; k++) any = andInto(mem, out, code[from + k] * words, words)
        stack[sp++] = any && b.phrase(scope, code, from, n, out) ? out : -1
        break
      }
      case END: return stack[0]
      default: throw new Error(`percolator program: bad instruction at ${pc - 1}`)
    }
  }
}

function copy(mem: Int32Array, to: number, from: number, words: number): void {
  for (let w = 0; w < words; w++) mem[to + w] = mem[from + w]
}

/** to = a ∩ b (`to` may be `a`); whether anything is in it. */
function and2(mem: Int32Array, to: number, a: number, b: number, words: number): boolean {
  let any = 0
  for (let w = 0; w < words; w++) any |= (mem[to + w] = mem[a + w] & mem[b + w])
  return any !== 0
}

/** to ∩= from; whether anything is left. */
function andInto(mem: Int32Array, to: number, from: number, words: number): boolean {
  let any = 0
  for (let w = 0; w < words; w++) any |= (mem[to + w] &= mem[from + w])
  return any !== 0
}

/** to −= from; whether anything is left. */
function andNotInto(mem: Int32Array, to: number, from: number, words: number): boolean {
  let any = 0
  for (let w = 0; w < words; w++) any |= (mem[to + w] &= ~mem[from + w])
  return any !== 0
}

/** to ∪= from. */
function orInto(mem: Int32Array, to: number, from: number, words: number): void {
  for (let w = 0; w < words; w++) mem[to + w] |= mem[from + w]
}
