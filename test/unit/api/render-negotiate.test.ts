import t from 'tap'
import { negotiate, NOT_ACCEPTABLE_DETAIL } from '../../../api/render/negotiate.js'

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8'

// [format param, Accept header, expected]
const CASES: [string | undefined, string | undefined, string][] = [
  [undefined, undefined, 'json'],
  [undefined, '', 'json'],
  [undefined, '*/*', 'json'],
  [undefined, 'application/json', 'json'],
  [undefined, 'APPLICATION/JSON', 'json'],
  [undefined, 'application/json; indent=4', 'json indent 4'],
  [undefined, 'application/json;indent=2', 'json indent 2'],
  [undefined, 'application/json; indent=20', 'json indent 8'],
  [undefined, 'application/json; indent=0', 'json'],
  [undefined, 'application/json; indent=abc', 'json'],
  [undefined, '*/*; indent=4', 'json indent 4'],
  [undefined, 'application/*', 'json'],
  [undefined, 'application/xml', 'xml'],
  [undefined, 'text/xml', 'xml'],
  [undefined, 'text/html', 'api'],
  [undefined, 'text/*', 'api'],
  [undefined, BROWSER, 'api'],
  // Chrome's navigation header, and curl's default.
  [undefined, 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7', 'api'],
  // As in the reference, specificity and renderer order rank, not quality values...
  [undefined, 'application/xml, application/json', 'json'],
  [undefined, 'application/xml;q=1, application/json;q=0.1', 'json'],
  [undefined, 'application/xml, */*', 'xml'],
  // ...but q=0 refuses a type.
  [undefined, 'application/json;q=0, application/xml', 'xml'],
  [undefined, 'image/png', '406'],
  [undefined, 'application/yaml, text/plain', '406'],
  [undefined, 'application/json;q=0', '406'],
  ['json', undefined, 'json'],
  ['json', 'application/json; indent=4', 'json indent 4'],
  ['json', 'text/html', 'json'],
  ['xml', undefined, 'xml'],
  ['xml', BROWSER, 'xml'],
  ['api', undefined, 'api'],
  ['api', 'application/json', 'api'],
  ['', 'application/xml', 'xml'],
  ['yaml', undefined, '404'],
  ['JSON', undefined, '404'],
]

t.test('format parameter and Accept header → rendering', async (t) => {
  for (const [format, accept, expected] of CASES) {
    const d = negotiate(format, accept)
    const got = 'status' in d ? String(d.status) : d.indent === null ? d.format : `${d.format} indent ${d.indent}`
    t.equal(got, expected, `format=${format ?? '(none)'} Accept: ${accept ?? '(none)'}`)
  }
})

t.test('refusals carry the reference detail', async (t) => {
  t.same(negotiate(undefined, 'image/png'), { status: 406, detail: NOT_ACCEPTABLE_DETAIL })
  t.same(negotiate('csv', undefined), { status: 404, detail: 'Not found.' })
})
