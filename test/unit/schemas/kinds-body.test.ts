import t from 'tap'
import { KINDS, keyed, ValueError, BODY_MESSAGES } from '../../../schemas/kinds.js'

const refused = (fn: () => unknown) => { try { fn(); return undefined } catch (err) { if (err instanceof ValueError) return err.message; throw err } }

t.test('a write body\'s values, read by their kind with the reference\'s messages', async (t) => {
  t.equal(KINDS.int.body('42', {}), 42, 'form text')
  t.equal(KINDS.int.body(42, {}), 42)
  t.equal(refused(() => KINDS.int.body('4.2', {})), BODY_MESSAGES.int)
  t.equal(refused(() => KINDS.int.body(5, { maxValue: 4 })), 'Ensure this value is less than or equal to 4.')
  t.equal(refused(() => KINDS.int.body(3, { choices: [{ value: 1 }, { value: 2 }] })), '"3" is not a valid choice.')
  t.equal(KINDS.float.body('1.5', {}), 1.5)
  t.equal(refused(() => KINDS.float.body(true, {})), BODY_MESSAGES.number)
  for (const w of ['true', 'True', '1', 'on', 'yes']) t.equal(KINDS.bool.body(w, {}), true, w)
  for (const w of ['false', 'False', '0', 'off', 'no']) t.equal(KINDS.bool.body(w, {}), false, w)
  t.equal(refused(() => KINDS.bool.body('maybe', {})), BODY_MESSAGES.bool)
  t.equal(KINDS.date.body('2024-02-29', {}), '2024-02-29')
  t.equal(refused(() => KINDS.date.body('2023-02-29', {})), BODY_MESSAGES.date)
  t.equal(KINDS.date.body('', { nullable: true }), null, 'an empty form field clears a nullable date')
  t.equal(refused(() => KINDS.datetime.body('soon', {})), BODY_MESSAGES.datetime)
  t.equal(refused(() => KINDS.string.body('', { required: true })), BODY_MESSAGES.blank)
  t.equal(refused(() => KINDS.string.body('abcdef', { maxLength: 5 })), 'Ensure this field has no more than 5 characters.')
  t.equal(refused(() => KINDS.string.body('a b', { input: 'slug' })), 'Enter a valid “slug” consisting of letters, numbers, underscores or hyphens.')
  t.equal(refused(() => KINDS.string.body({}, {})), 'Not a valid string.')
  t.same(KINDS.m2m.body(['1', 2], { choices: [{ value: 9 }] }), [1, 2], 'choices apply to the field, not to each item')
  t.equal(refused(() => KINDS.m2m.body('1', {})), BODY_MESSAGES.list)
  t.equal(refused(() => KINDS.m2m.body([null], {})), BODY_MESSAGES.null)
  t.same(keyed('m2m', true).body(['scotus', 'ca9'], {}), ['scotus', 'ca9'], 'keys of a string-keyed resource stay text')
  t.equal(keyed('fk', true).body('scotus', { required: true }), 'scotus')
  t.equal(KINDS.json.body({ a: 1 }, {}), '{"a":1}')
})
