import t from 'tap'
import { answerJson } from '../../../api/engine/answer-json.js'

t.test('a list answer serializes exactly as JSON.stringify does', async (t) => {
  const shared = { id: 1, case_name: 'A "quoted" \u2028 name', tags: [], court: { id: 'scotus' }, none: null, skipped: undefined }
  const answers: Record<string, unknown>[] = [
    { count: 2, next: 'http://x/?page=2', previous: null, results: [shared, { id: 2, when: new Date(0) }] },
    { count: 'http://x/?count=on', next: null, previous: null, results: [shared] },
    { count: 0, next: null, previous: null, results: [] },
    { count: 5 },
    { detail: 'x', extra: undefined, results: [null, 1, 'a'] },
  ]
  for (const a of answers) t.equal(answerJson(a), JSON.stringify(a))
  t.equal(answerJson(answers[0]), JSON.stringify(answers[0]), 'the same object again, from its remembered text')
})
