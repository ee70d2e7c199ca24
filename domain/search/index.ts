/**
 * Search: the query language, its in-memory matcher and its ClickHouse compilation. Pure code,
 * no I/O: callers (the search API, the search-index processor, the alert percolator) run the SQL.
 *
 *   analyzer.ts      one analyzer for documents and queries (fold, lower case, split, positions)
 *   fields.ts        searchable fields per search type (o, r, d, rd, p, oa): kind, column, boost
 *   parse.ts         the query language → AST (ast.ts); SearchSyntaxError with a position
 *   document.ts      a search document → AnalyzedDoc (tokens per text field, values per field)
 *   matcher.ts       AST → (AnalyzedDoc) => boolean, compiled once (the percolator)
 *   bm25.ts          the scoring model and its in-memory reference
 *   common-grams.ts  the common words whose pairs are indexed as grams (phrases through them)
 *   tables.ts        names of a type's ClickHouse tables and dictionaries, shared by every side
 *   query-sql.ts     AST → Sql for ids+scores, count, stats (text-sql.ts: the postings reads)
 *
 * A search request, end to end:
 *   const ast = parseQuery(q, type)                                  // 400 on a syntax error
 *   const stats = (await db.query(statsSql(ast, type, opts)))[0]     // only when ordering by score
 *   const page = await db.query(searchSql(ast, type, { ...opts, stats, filters, order, limit }))
 *   const [{ count }] = await db.query(countSql(ast, type, { ...opts, filters }))
 * The index's layout (DDL) is schemas/internal/search-layout.ts; its rows, written by the indexer,
 *   streams/search/index-rows.ts (toIndexRows).
 * Percolation: compileMatcher(parseQuery(alert.q, type), type)(analyzeDocument(type, doc)).
 */
export { tokens, analyze, normalizeKeyword, fold, type AnalyzedToken } from './analyzer.js'
export { SEARCH_TYPES, searchType, isSearchType, type SearchType, type FieldKind, type SearchField, type SearchTypeSpec } from './fields.js'
export { show, leaves, and, or, not, ALL, NONE, type Node, type Leaf, type Scalar } from './ast.js'
export { parseQuery, SearchSyntaxError, MESSAGES, MIN_PREFIX, dateSpan } from './parse.js'
export { analyzeDocument, analyzeText, textHash, VALUE_GAP, type AnalyzedDoc, type AnalyzedField, type FieldValue, type SearchDocument } from './document.js'
export { compileMatcher, type Matcher } from './matcher.js'
export { scoreDocument, scoringPlan, scores, weights, phraseWeights, idf, tfNorm, K1, B, type SearchStats, type ScoringPlan } from './bm25.js'
export { searchSql, countSql, statsSql, expansionSql, DEFAULT_MAX_EXPANSIONS, type SearchSqlOptions } from './query-sql.js'
export { searchTables, searchLegacyTables, type TableOptions } from './tables.js'
// the layout's DDL is not domain code; re-exported for core/migrate.ts, which imports it from here
export { searchRequest, requestAst, SearchRequestError, DEFAULT_ORDER, type SearchRequest, type OrderKey } from './request.js'
export { highlighter, SNIPPET_SIZE, type Highlighter } from './highlight.js'
export { presentResult, type PresentOptions } from './results.js'
export { createQueryIndex, type QueryIndex, type StoredQuery } from './percolate.js'
