/**
 * The common grams of the search index: the tokens so frequent that a pair of adjacent tokens with
 * one of them is also indexed as a gram of its own (Lucene's CommonGrams), and the field the grams
 * are kept under. An analysis fact shared by the index rows (which write the grams), the query
 * compiler (which reads them for phrases) and the layout's migrations (which keep them).
 */

/**
 * Tokens so frequent in U.S. court text that a phrase through them would read postings of nearly
 * every document (function words, "v", reporter abbreviations: "F.3d" → "f 3d"). A pair of
 * adjacent tokens of which one is common is also indexed as a gram (Lucene's CommonGrams): a
 * posting of field `<column>~2` whose term is "a b", at the position of a. A phrase then reads the
 * grams of its common pairs, far rarer than their tokens, instead of the tokens' positions.
 * Changing this list needs a re-index (grams are written at indexing time).
 * Not every pair: indexing all adjacent pairs (layout 3, schemas/internal/search-layout.ts) gave
 * the postings table 3 times the rows, halved the index rate and slowed term, field, filtered and
 * ordered queries by 20-30 %, without making phrases faster: most of a scored phrase's time is
 * reading its words' postings for BM25 and the statistics, not finding the documents that hold it.
 */
export const COMMON_WORDS: ReadonlySet<string> = new Set(`a an and as at be by for from in is it of on or that the this to was
  which with v s f 2d 3d u ct supp`.split(/\s+/))

/** Field name of the grams of a text column in the postings. */
export const gramField = (column: string): string => `${column}~2`
/** A pair of adjacent tokens that is indexed as a gram. */
export const isCommonPair = (a: string, b: string) => COMMON_WORDS.has(a) || COMMON_WORDS.has(b)
