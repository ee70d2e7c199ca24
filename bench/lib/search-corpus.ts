/**
 * Opinion-like search documents for bench/search.ts, generated batch by batch (memory does not
 * grow with N) and reproducibly (a batch is a pure function of its first id):
 *
 * - text: 150-450 words from a 50,000-word vocabulary under a Zipf law (s = 1): the top ranks are
 *   real English and legal words ("the", "court", "plaintiff", …), the tail is made of syllables;
 *   sentences capitalised and closed by a period; every ~60 words a citation of a real reporter
 *   ("512 F.3d 1020", "410 U.S. 113", "98 S. Ct. 2733", "F. Supp. 2d"), so frequent phrases of
 *   frequent tokens ("f 3d") exist as in real opinions;
 * - case names: "Surname v. Surname" (the sample generator's surnames, plus companies, the
 *   United States and States), with caseNameFull longer;
 * - courts: 120 real court ids and names (data/courts/courts.json), Zipf-skewed (s = 0.8);
 * - dateFiled uniform over 1950-2025, docket numbers, judges, 1-2 citations, cite counts.
 */
import { SURNAMES, COMPANY_NOUNS, COMPANY_PLACES } from '../../connectors/sample/vocabulary.js'
import { readRawCourts } from '../../connectors/sample/courts.js'
import { mulberry32 } from '../../test/kit/random.js'

/** The kit's seeded generator (mulberry32), which the benchmark's queries draw from too (search-queries.ts). */
export const rng = mulberry32

const COMMON = `the of and to a in that is for court be as by on not it this was with or are which at an have any
  from such under state defendant plaintiff shall his its no may we were but trial he if been would claim had their
  case there has appeal evidence law act district upon order judgment motion section our one other all than they
  those did also must only whether rule because its what statute federal jury rights party parties question when
  circuit where v see id at contract damages issue error so made fact facts supreme record time due review petitioner
  respondent standard process after before should could first however held county whose conviction sentence county
  counsel amendment constitutional property government city police officer search warrant testimony witness
  jurisdiction complaint summary relief injunction discovery defense hearing appellant appellee authority reasonable
  notice agreement insurance employment liability negligence breach duty care cause harm injury tax estate trust
  corporation company board agency commission regulation administrative proceeding decision opinion reversed
  affirmed remanded vacated dismissed granted denied petition habeas corpus criminal civil procedure lower panel
  majority dissent concurring therefore thus moreover accordingly although further second third clearly finding
  findings conclude concluded argument argues argued contends contention support supported determine determined`.split(/\s+/).filter(Boolean)

const SYL = 'ba be bi bo bu da de di do du fa fe fi ka ke ki ko la le li lo lu ma me mi mo mu na ne ni no nu pa pe pi po ra re ri ro ru sa se si so su ta te ti to tu va ve vi za ze zo ex ant ion ment'.split(' ')

function vocabulary(n: number): string[] {
  const r = rng(0x5eed)
  const seen = new Set<string>(COMMON)
  const out = [...new Set(COMMON)]
  while (out.length < n) {
    let w = ''
    const k = 2 + Math.floor(r() * 3)
    for (let i = 0; i < k; i++) w += SYL[Math.floor(r() * SYL.length)]
    if (!seen.has(w)) { seen.add(w); out.push(w) }
  }
  return out
}

/** Zipf sampler over ranks 0..n-1: a cumulative table and a binary search. */
function zipf(n: number, s: number, r: () => number): () => number {
  const cdf = new Float64Array(n)
  let acc = 0
  for (let k = 0; k < n; k++) { acc += 1 / Math.pow(k + 1, s); cdf[k] = acc }
  for (let k = 0; k < n; k++) cdf[k] /= acc
  return () => {
    const u = r()
    let lo = 0
    let hi = n - 1
    while (lo < hi) { const mid = (lo + hi) >> 1; if (cdf[mid] < u) lo = mid + 1; else hi = mid }
    return lo
  }
}

export const WORDS = vocabulary(50_000)
const REPORTERS = ['F.3d', 'F.2d', 'F.4th', 'U.S.', 'S. Ct.', 'L. Ed. 2d', 'F. Supp. 2d', 'F. Supp. 3d', 'N.E.2d', 'So. 2d', 'P.3d', 'A.2d', 'Cal. Rptr. 3d', 'N.W.2d']
const COURTS = readRawCourts().filter((c) => c.id && c.name).slice(0, 120).map((c) => ({ id: c.id, name: c.name, cite: c.citation_string || c.id }))
export const COURT_IDS = COURTS.map((c) => c.id)
const PARTY_NAMES = [...SURNAMES, ...COMPANY_PLACES.flatMap((p) => COMPANY_NOUNS.slice(0, 4).map((n) => `${p} ${n}`)), 'United States', 'State', 'Commonwealth', 'People']
export const SURNAME_TOKENS = SURNAMES.map((s) => s.toLowerCase().replace(/[^a-z]/g, '')).filter((s) => s.length > 2)

const DAY0 = Date.UTC(1950, 0, 1)
const DAYS = Math.floor((Date.UTC(2025, 11, 31) - DAY0) / 86_400_000)
const day = (d: number) => new Date(DAY0 + d * 86_400_000).toISOString().slice(0, 10)

export interface OpinionDoc {
  id: number
  case_name: string
  case_name_full: string
  docket_number: string
  citation: string[]
  judge: string
  court: string
  court_citation_string: string
  court_id: string
  status: string
  date_filed: string
  cite_count: number
  text: string
  [k: string]: unknown
}

export interface Corpus {
  /** documents first..first+count-1 (ids), the same ones on every call */
  batch(first: number, count: number): OpinionDoc[]
}

export function createCorpus(): Corpus {
  return {
    batch(first, count) {
      const r = rng(Math.imul(first, 2654435761) ^ 0x1234567)
      const word = zipf(WORDS.length, 1.0, r)
      const party = zipf(PARTY_NAMES.length, 0.6, r)
      const court = zipf(COURTS.length, 0.8, r)
      const cite = () => `${1 + Math.floor(r() * 999)} ${REPORTERS[Math.floor(r() * REPORTERS.length)]} ${1 + Math.floor(r() * 1500)}`
      const out: OpinionDoc[] = []
      for (let id = first; id < first + count; id++) {
        const len = 150 + Math.floor(r() * 300)
        const parts: string[] = []
        let sentence = 0
        for (let i = 0; i < len; i++) {
          let w = WORDS[word()]
          if (sentence === 0) w = w[0].toUpperCase() + w.slice(1)
          sentence++
          if (sentence > 8 && r() < 0.12) { w += '.'; sentence = 0 }
          parts.push(w)
          if (r() < 1 / 60) parts.push(`${cite()},`)
        }
        const a = PARTY_NAMES[party()]
        const b = PARTY_NAMES[party()]
        const c = COURTS[court()]
        const filed = Math.floor(r() * DAYS)
        out.push({
          id,
          case_name: `${a} v. ${b}`,
          case_name_full: `${a}, Plaintiff-Appellant, v. ${b}, Defendant-Appellee`,
          docket_number: `${String(Math.floor(filed / 365) % 100).padStart(2, '0')}-${r() < 0.5 ? 'cv' : 'cr'}-${1 + Math.floor(r() * 9999)}`,
          citation: r() < 0.7 ? (r() < 0.3 ? [cite(), cite()] : [cite()]) : [],
          judge: `${SURNAMES[Math.floor(r() * SURNAMES.length)]}`,
          court: c.name,
          court_citation_string: c.cite,
          court_id: c.id,
          status: r() < 0.8 ? 'Published' : 'Unpublished',
          date_filed: day(filed),
          cite_count: Math.floor(-Math.log(1 - r()) * 8),
          text: parts.join(' '),
        })
      }
      return out
    },
  }
}

export { day as dayString, DAYS }
