import t from 'tap'
import { encodeCursor, decodeCursor } from '../../../api/engine/cursor.js'
import { compileFieldSelection } from '../../../api/engine/fields.js'

t.test('cursors round-trip and refuse positions of the wrong type', async (t) => {
  const c = { offset: 2, reverse: true, position: '123' }
  t.same(decodeCursor(encodeCursor(c), 'int'), c)
  const dt = { offset: 0, reverse: false, position: '2024-01-02T03:04:05.000000Z' }
  t.same(decodeCursor(encodeCursor(dt), 'datetime'), dt)
  for (const [text, kind] of [[encodeCursor(dt), 'int'], [encodeCursor(c), 'datetime'], ['%%%not-base64', 'int'], [Buffer.from([0xff, 0xfe]).toString('base64'), 'int']] as const) {
    t.throws(() => decodeCursor(text, kind), { status: 404, message: 'Invalid cursor', code: 'LDS_ERR_INVALID_CURSOR' })
  }
})

t.test('fields and omit, nested in v4, top-level only in v3', async (t) => {
  const person = { id: 1, name_last: 'Ginsburg', educations: [{ id: 9, degree_level: 'jd', school: { id: 3, name: 'Columbia' } }] }
  t.same(compileFieldSelection({ fields: 'id,educations__school__name', version: 'v4' })!(person), { id: 1, educations: [{ school: { name: 'Columbia' } }] })
  t.same(compileFieldSelection({ omit: 'educations__school', version: 'v4' })!(person), { id: 1, name_last: 'Ginsburg', educations: [{ id: 9, degree_level: 'jd' }] })
  t.same(compileFieldSelection({ fields: 'id,educations__id', omit: 'educations__id', version: 'v4' })!(person), { id: 1, educations: [{}] })
  t.same(compileFieldSelection({ fields: '', version: 'v4' })!(person), {}, 'blank fields keeps nothing')
  t.same(compileFieldSelection({ fields: 'id,educations__id', version: 'v3' })!(person), { id: 1 }, 'v3 ignores nested names')
  t.same(compileFieldSelection({ fields: 'id,unknown', version: 'v4' })!(person), { id: 1 }, 'unknown names are ignored')
  t.equal(compileFieldSelection({ version: 'v4' }), undefined)
})
