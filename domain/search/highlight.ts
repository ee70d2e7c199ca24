/**
 * Highlighting of search results: the words of a query (its terms, phrase words and prefixes that
 * are not negated) wrapped in a tag (`<mark>` in the API, `<strong>` in alerts), and the snippet of
 * a long text: the first 500 characters, or with highlighting on, a 500-character window around the
 * first match. Words are compared after the analyzer's folding, so "Müller" marks "muller".
 */
import { fold } from './analyzer.js'
import { leaves, type Node } from './ast.js'

/** The reference's size of a snippet without a match. */
export const SNIPPET_SIZE = 500
/** Characters kept before the first match in a snippet. */
const LEAD = 100
const WORD = /[\p{L}\p{N}]+/gu

export interface Highlighter {
  /** Does the text hold a query word? */
  matches(text: string): boolean
  /** The text with every query word wrapped in the tag. */
  mark(text: string): string
  /** The snippet of a long text (marked when `marked`). */
  snippet(text: string, marked: boolean): string
}

export function highlighter(ast: Node, tag = 'mark'): Highlighter {
  const words = new Set<string>()
  const prefixes: string[] = []
  for (const { leaf, negated } of leaves(ast)) {
    if (negated) continue
    if (leaf.kind === 'term') words.add(leaf.token)
    else if (leaf.kind === 'phrase') for (const t of leaf.tokens) words.add(t)
    else if (leaf.kind === 'prefix') prefixes.push(fold(leaf.prefix))
  }
  const hit = (word: string) => {
    if (!words.size && !prefixes.length) return false
    const f = fold(word)
    return words.has(f) || prefixes.some((p) => f.startsWith(p))
  }
  const firstHit = (text: string): number => {
    for (const m of text.matchAll(WORD)) if (hit(m[0])) return m.index
    return -1
  }
  const mark = (text: string) => text.replace(WORD, (w) => (hit(w) ? `<${tag}>${w}</${tag}>` : w))
  return {
    matches: (text) => firstHit(text) >= 0,
    mark,
    snippet(text, marked) {
      if (!marked) return text.slice(0, SNIPPET_SIZE)
      const at = firstHit(text)
      if (at < 0) return text.slice(0, SNIPPET_SIZE)
      // start at a word boundary a little before the match
      let start = Math.max(0, at - LEAD)
      while (start > 0 && start < at && /[\p{L}\p{N}]/u.test(text[start - 1])) start++
      return mark(text.slice(start, start + SNIPPET_SIZE))
    },
  }
}
