/**
 * Text versions: a change that leaves a search document's text as it was (a citation count, the
 * links of an opinion's HTML) writes the document row alone, pointing at the postings of the
 * version that holds its text.
 */
import t from 'tap'
import { analyzeDocument, textHash } from '../../../domain/search/document.js'
import { indexColumns } from '../../../schemas/internal/search-layout.js'
import { toIndexRows } from '../../../streams/search/index-rows.js'
import { textVersionOf } from '../../../streams/search/indexer.js'

const opinion = (extra: Record<string, unknown> = {}) => ({ id: 7, case_name: 'Smith v. Jones', text: 'the court held that the statute applies', court_id: 'scotus', cite_count: 1, ...extra })

t.test('textHash: the same for the same text fields, whatever else changed; different when a text field changes', async (t) => {
  const h = textHash('o', opinion())
  t.equal(textHash('o', opinion({ cite_count: 40, court_id: 'ca9' })), h, 'citation count and court are not text')
  t.not(textHash('o', opinion({ text: 'the court held that the statute does not apply' })), h, 'the body')
  t.not(textHash('o', opinion({ case_name: 'Smith v. Jonas' })), h, 'the case name')
  t.not(textHash('o', opinion({ citation: ['1 U.S. 2'] })), h, 'a citation added')
  t.not(textHash('o', { ...opinion(), case_name: 'the court held', text: 'Smith v. Jones' }), h, 'the same words in other fields')
  t.not(textHash('o', opinion({ citation: ['1 U.S.', '2'] })), textHash('o', opinion({ citation: ['1', 'U.S. 2'] })), 'the same characters split into other values')
  t.ok(Number.isSafeInteger(h) && h > 0, 'a safe positive integer (ClickHouse UInt64 from JSON)')
})

t.test('textVersionOf: the previous text version only when the text is the same and the document was not deleted', async (t) => {
  t.same(textVersionOf(undefined, 55, 9), { textVersion: 9, textHash: 55 }, 'a new document writes postings')
  t.same(textVersionOf({ hash: 55, textVersion: 4, deleted: false }, 55, 9), { textVersion: 4, textHash: 55 }, 'same text: the postings of version 4')
  t.same(textVersionOf({ hash: 54, textVersion: 4, deleted: false }, 55, 9), { textVersion: 9, textHash: 55 }, 'changed text: new postings')
  t.same(textVersionOf({ hash: 55, textVersion: 4, deleted: true }, 55, 9), { textVersion: 9, textHash: 55 }, 'deleted before: new postings (compaction dropped the old ones)')
  t.same(textVersionOf({ hash: 0, textVersion: 4, deleted: false }, 0, 9), { textVersion: 9, textHash: 0 }, 'a row from before text hashes: new postings')
})

t.test('toIndexRows: a row whose text version is older writes no postings; its row carries the text version and hash', async (t) => {
  const a = analyzeDocument('o', opinion())
  const b = analyzeDocument('o', { ...opinion(), id: 8 })
  const rows = toIndexRows('o', [{ doc: a, version: 9, textVersion: 4, textHash: 55 }, { doc: b, version: 9, textHash: 56 }])
  const cols = indexColumns('o')
  const pick = (r: unknown[]) => Object.fromEntries(cols.map((c, i) => [c, r[i]]))
  t.match(pick(rows.docs[0]), { id: 7, version: 9, text_version: 4, text_hash: 55 })
  t.match(pick(rows.docs[1]), { id: 8, version: 9, text_version: 9, text_hash: 56 })
  const only = toIndexRows('o', [{ doc: a, version: 9, textVersion: 4, textHash: 55 }])
  t.equal(only.postingRows, 0, 'the unchanged document alone: no postings')
  t.ok(rows.postingRows > 0, 'the changed one has its postings')
  t.equal(rows.postingRows, toIndexRows('o', [{ doc: b, version: 9 }]).postingRows, 'only its own')
})
