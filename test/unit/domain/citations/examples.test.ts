/**
 * Every example in data/reporters/reporters.json (each reporter's `examples` list, which covers its
 * editions and variations) must be found with the right reporter, volume and page.
 *
 * Expected values are derived independently of the library: volume = the example's first token
 * when it starts with a digit, page = its last token without a paragraph marker (¶, P) or trailing
 * punctuation. Where that simple rule does not fit the form (neutral cites without spaces,
 * reporter-first forms, suffixes the data's regex keeps out of the page group, …) the expected
 * values are written out below with the reason.
 */
import t from 'tap'
import { readFileSync } from 'node:fs'
import { extractCitations } from '../../../../domain/citations/index.js'
import { projectFile } from '../../../../core/programs.js'

interface Rep { editions: Record<string, unknown>; examples?: string[] }
const reporters = JSON.parse(readFileSync(projectFile('data/reporters/reporters.json'), 'utf8')) as Record<string, Rep[]>

const SPECIAL: Record<string, { volume?: string; page: string; why: string }> = {
  'Am.Ann.Cas. 1916C, 1093': { volume: '1916C', page: '1093', why: 'reporter first, year-letter volume after it' },
  'Am.Ann.Cas. 1916E,157': { volume: '1916E', page: '157', why: 'reporter first, no space after the comma' },
  'L.R.A. 1915A, 601': { volume: '1915A', page: '601', why: 'reporter first, year-letter volume' },
  'L.R.A. 1918F,891': { volume: '1918F', page: '891', why: 'reporter first, no space after the comma' },
  '22CO7': { volume: '22', page: '7', why: 'neutral cite written without spaces' },
  '2016 CO 47M': { volume: '2016', page: '47', why: "the data's regex keeps the M suffix out of the page" },
  '2021COA112': { volume: '2021', page: '112', why: 'neutral cite written without spaces' },
  '21COA112': { volume: '21', page: '112', why: 'neutral cite written without spaces' },
  '2014 FED App. 0840N (6th Cir.)': { volume: '2014', page: '0840N', why: 'court parenthetical is part of the form' },
  '20 Fla. L. Weekly D2629': { volume: '20', page: '2629', why: 'division letter D is outside the page group' },
  '42 Fla. L. Weekly S827': { volume: '42', page: '827', why: 'division letter S is outside the page group' },
  '140 Lab. Cas. (CCH) P58,886A': { volume: '140', page: '58,886', why: "the data's regex keeps the A suffix out of the page" },
  'Mass. App. Div. Adv. Sh. (1979) 219': { volume: '1979', page: '219', why: 'reporter first, year volume in parentheses' },
  '2005-NMCA-078': { volume: '2005', page: '078', why: 'hyphenated format-neutral cite' },
  '2010-NMCERT-001': { volume: '2010', page: '001', why: 'hyphenated format-neutral cite' },
  '2010-NMSC-007': { volume: '2010', page: '007', why: 'hyphenated format-neutral cite' },
  '2017-Ohio-5699': { volume: '2017', page: '5699', why: 'hyphenated format-neutral cite' },
  'SCDB 1846-016': { volume: '1846', page: '016', why: 'reporter first, year-number' },
  'SCDB 1799-006': { volume: '1799', page: '006', why: 'reporter first, year-number' },
  'T.C. Memo 2019-1234': { volume: '2019', page: '1234', why: 'reporter first, year-number' },
  'T.C. Summary Opinion 2002-43': { volume: '2002', page: '43', why: 'reporter first, year-number' },
  'T.C.M. (RIA) 2004-279': { volume: '2004', page: '279', why: 'reporter first, year-number' },
}
for (const n of [1, 2, 3, 4, 5, 6]) {
  SPECIAL[`2009 1359R (La.App. ${n} Cir. 05/10/10)`] = { volume: '2009', page: '1359R', why: 'Louisiana form: reporter and date in parentheses after the page' }
}

function expected(ex: string): { volume?: string; page: string } {
  const special = SPECIAL[ex]
  if (special) return special
  const toks = ex.trim().split(/\s+/)
  const volume = /^\d/.test(ex) ? toks[0].replace(/,$/, '') : undefined
  const page = toks[toks.length - 1].replace(/[,.]+$/, '').replace(/^(?:¶|P)(?=\d)/, '')
  return { volume, page }
}

t.test('every example in reporters.json is found with its reporter, volume and page', async (t) => {
  let total = 0
  let pass = 0
  const failures: string[] = []
  for (const [family, list] of Object.entries(reporters)) {
    for (const rep of list) {
      const editions = new Set(Object.keys(rep.editions))
      for (const ex of rep.examples ?? []) {
        total++
        const found = extractCitations(ex, { html: false })
        const hit = found.find((c) => c.candidates.some((x) => editions.has(x.reporter)))
        const exp = expected(ex)
        const problems: string[] = []
        if (!hit) problems.push(`not found (got ${found.map((f) => `${f.kind} ${f.matchedText}`).join('; ') || 'nothing'})`)
        else {
          if (hit.kind !== 'full_case') problems.push(`kind ${hit.kind}`)
          if (hit.volume !== exp.volume) problems.push(`volume ${hit.volume} != ${exp.volume}`)
          if (hit.page !== exp.page) problems.push(`page ${hit.page} != ${exp.page}`)
          if (ex.slice(hit.start, hit.end) !== hit.matchedText) problems.push('offsets')
          if (!hit.normalized.length) problems.push('no normalized form')
        }
        if (problems.length) failures.push(`${JSON.stringify(ex)} [${family}]: ${problems.join(', ')}`)
        else pass++
      }
    }
  }
  t.comment(`reporters.json examples: ${pass}/${total} pass (${((pass / total) * 100).toFixed(1)} %)`)
  for (const f of failures) t.comment(`FAIL ${f}`)
  t.equal(total, 499, 'all examples of the data were iterated')
  t.same(failures, [], 'no example fails')
})

t.test('the chosen edition belongs to the example’s reporter unless the written form is itself another edition', async (t) => {
  // '1 Hay. & Haz. 176' is listed under Hayw. & H.D.C. as a variation, but 'Hay. & Haz.' is also the
  // key of a District of Columbia reporter: both are candidates, the exact key is chosen.
  const ambiguousByData = new Set(['1 Hay. & Haz. 176'])
  const wrong: string[] = []
  for (const list of Object.values(reporters)) {
    for (const rep of list) {
      const editions = new Set(Object.keys(rep.editions))
      for (const ex of rep.examples ?? []) {
        const hit = extractCitations(ex, { html: false }).find((c) => c.candidates.some((x) => editions.has(x.reporter)))
        if (hit && !editions.has(hit.reporter!) && !ambiguousByData.has(ex)) wrong.push(`${ex} -> ${hit.reporter}`)
      }
    }
  }
  t.same(wrong, [])
})
