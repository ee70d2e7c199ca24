import t from 'tap'
import { keyEquals } from '../../../streams/table-sink.js'

t.test('keyEquals compares message key bytes with the event key as UTF-8 would', async (t) => {
  const cases: [string, string][] = [['123', '123'], ['123', '124'], ['12', '123'], ['scotus', 'scotus'], ['', ''], ['é', 'é'], ['é', 'e'], ['ab', 'é'], ['ñandú', 'ñandú'], ['x\u0000y', 'x\u0000y']]
  for (const [bytes, key] of cases) t.equal(keyEquals(Buffer.from(bytes), key), bytes === key, `${JSON.stringify(bytes)} vs ${JSON.stringify(key)}`)
  // Invalid UTF-8 never equals a key.
  t.equal(keyEquals(Buffer.from([0xff, 0xfe]), '\ufffd\ufffd'), Buffer.from([0xff, 0xfe]).toString('utf8') === '\ufffd\ufffd')
  t.equal(keyEquals(Buffer.from([0xc3]), 'a'), false)
})
