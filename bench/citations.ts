/**
 * Citation extractor benchmark:
 *   npx tsx bench/citations.ts [--quick] [--mb N] [--runs N] [--no-eyecite] [--eyecite-chars N] [--save-text FILE]
 *
 * 1. Builds a deterministic opinion-like text (default ~3 MB; --quick ~0.5 MB): legal prose with
 *    thousands of citations of many reporters (every edition in reporters.json with a standard form,
 *    written as its key or a variation, the data's own examples, parallel cites, pin cites,
 *    parentheticals, Id., supra, short cites, statutes, regulations, journals) and decoys that only
 *    look like citations.
 * 2. Times `extractCitations` on it (warm-up, then several runs, median) → chars/s and citations/s.
 * 3. If Python's eyecite is available in .data/venv-eyecite (created here with pip when missing;
 *    skipped with --no-eyecite or when pip fails), runs `eyecite.get_citations` in the same run.
 *    eyecite manages only ~5–10 k chars/s on this machine, so to stay within ~3 minutes it gets a
 *    prefix of the text (default 300 k chars, --eyecite-chars; --quick 100 k) and ours is timed on
 *    exactly that prefix for the speed ratio. Recall = share of eyecite's full case citations we
 *    also find at the same start offset with the same volume and page (eyecite starts a cite
 *    without volume at the space before the reporter; that space is skipped). Reporter agreement =
 *    share of those where eyecite's (corrected) reporter is among our candidates.
 */
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { extractCitations, warmUp, type FoundCitation } from '../domain/citations/index.js'
import { mulberry32, pick as pickOf, intBetween } from '../test/kit/random.js'
import { parseFlags } from '../test/kit/args.js'

const here = path.dirname(fileURLToPath(import.meta.url))
const repo = path.resolve(here, '..')
const flags = parseFlags('npx tsx bench/citations.ts', ({ quick }) => ({
  quick: { type: 'boolean', help: 'small sizes' },
  mb: { type: 'number', default: quick ? 0.5 : 3, help: 'MB of generated text' },
  runs: { type: 'number', default: quick ? 3 : 5, help: 'timed runs (the median is reported)' },
  'no-eyecite': { type: 'boolean', help: 'skip the eyecite peer' },
  'eyecite-chars': { type: 'number', default: quick ? 100_000 : 300_000, help: 'characters of the text given to eyecite' },
  'save-text': { type: 'string', default: '', help: 'also write the generated text to this file' },
}))
const targetMb = flags.mb
const runs = flags.runs
const useEyecite = !flags['no-eyecite']
/** eyecite runs at ~10 k chars/s here, so it gets a prefix of the text (ours is timed on the same prefix) */
const eyeChars = flags['eyecite-chars']

const log = (s: string) => process.stdout.write(s + '\n')
const progress = (label: string, done: number, total: number, note = '') => {
  if (!process.stdout.isTTY) { if (note) log(`  ${label} ${done}/${total}: ${note}`); return }
  const w = 30
  const f = Math.round((done / total) * w)
  process.stdout.write(`\r  ${label} [${'#'.repeat(f)}${'.'.repeat(w - f)}] ${done}/${total}` + (done === total ? '\n' : ''))
}

// ---------------------------------------------------------------------------------------------
// text

interface Ed { key: string; strings: string[]; start: number; end: number }

function loadEditions(): { common: Ed[]; all: Ed[]; examples: string[] } {
  const reporters = JSON.parse(readFileSync(path.join(repo, 'data/reporters/reporters.json'), 'utf8')) as Record<string, {
    editions: Record<string, { start: string | null; end: string | null; regexes?: string[] }>
    variations?: Record<string, string>
    examples?: string[]
  }[]>
  const all: Ed[] = []
  const examples: string[] = []
  for (const list of Object.values(reporters)) {
    for (const rep of list) {
      examples.push(...(rep.examples ?? []))
      for (const [key, ed] of Object.entries(rep.editions)) {
        if (ed.regexes && ed.regexes.length && !ed.regexes.includes('$full_cite')) continue
        const vars = Object.entries(rep.variations ?? {}).filter(([, k]) => k === key).map(([v]) => v)
        const start = ed.start ? Number(ed.start.slice(0, 4)) : 1800
        const end = ed.end ? Number(ed.end.slice(0, 4)) : 2024
        all.push({ key, strings: [key, ...vars], start, end: Math.max(start, end) })
      }
    }
  }
  const commonKeys = ['U.S.', 'S. Ct.', 'L. Ed. 2d', 'F.2d', 'F.3d', 'F.4th', 'F. Supp.', 'F. Supp. 2d', 'F. Supp. 3d', "F. App'x",
    'So. 2d', 'So. 3d', 'P.2d', 'P.3d', 'N.E.2d', 'N.E.3d', 'A.2d', 'A.3d', 'N.W.2d', 'S.W.3d', 'S.E.2d', 'Cal. App. 4th',
    'Cal. Rptr. 3d', 'N.Y.S.2d', 'B.R.', 'Cal. 4th', 'Ill. 2d', 'Mass.', 'N.J.', 'Pa. Super.', 'Wis. 2d']
  const common = commonKeys.map((k) => all.find((e) => e.key === k)).filter((e): e is Ed => !!e)
  return { common, all, examples }
}

const COURTS = ['9th Cir.', '2d Cir.', '5th Cir.', 'D.C. Cir.', 'Fed. Cir.', 'S.D.N.Y.', 'N.D. Cal.', 'E.D. Pa.', 'D. Mass.',
  'Cal. Ct. App.', 'Tex. App.', 'N.Y. App. Div.', 'Ill. App. Ct.', 'Bankr. S.D.N.Y.', '7th Cir.', '11th Cir.']
const NAMES = ['Smith', 'Jones', 'Acme Corp.', 'United States', 'State', 'Brown', 'Garcia', 'Miller', 'Board of Educ.', 'City of Springfield',
  'Johnson', 'Lee', 'Rodriguez', 'Nat\'l Labor Relations Bd.', 'Commonwealth', 'People', 'Wilson', 'Anderson', 'Taylor', 'Thomas']
const WORDS = ('the court held that a party must show plaintiff defendant appeal motion summary judgment evidence reasonable ' +
  'standard review statute claim damages contract negligence duty breach jury verdict trial record district opinion ' +
  'because however therefore moreover under pursuant whether which although argued concluded affirmed reversed remanded ' +
  'we agree disagree finding question law fact burden proof clearly erroneous de novo abuse discretion').split(' ')
const DECOYS = [
  'In 1999 the 5 U.S. soldiers returned home.', 'Call 555 1234 or 800-555-0199 for details.', 'See Section 5 of 10 of the agreement.',
  'On May 5, 1999, at 10 a.m., the parties met.', 'The vote was 5 to 4 on June 30, 2015.', 'Rule 12(b)(6) was invoked on 3 occasions.',
  'Exhibit 12 at page 7 shows 3 F. signatures.', 'He paid $1,500 in 2003 and 20 percent later.', 'Paragraph 4 of Article 2 governs.',
]
const LAWS = ['42 U.S.C. § 1983', '28 U.S.C. § 1331', '18 U.S.C. § 922(g)', '29 C.F.R. § 1630.2', '15 U.S.C. §§ 78j', '26 U.S.C. § 501',
  '40 C.F.R. § 52.21', '5 U.S.C. § 706']
const JOURNALS = ['Harv. L. Rev.', 'Yale L.J.', 'Colum. L. Rev.', 'Stan. L. Rev.', 'U. Chi. L. Rev.', 'Mich. L. Rev.', 'Cal. L. Rev.']

function buildText(targetChars: number): { text: string; planted: number } {
  const r = mulberry32(20240611)
  const { common, all, examples } = loadEditions()
  const pick = <T,>(xs: readonly T[]): T => pickOf(r, xs)
  const int = (lo: number, hi: number) => intBetween(r, lo, hi)
  const sentence = () => {
    const n = int(8, 22)
    const w: string[] = []
    for (let k = 0; k < n; k++) w.push(pick(WORDS))
    const s = w.join(' ')
    return s[0].toUpperCase() + s.slice(1) + '.'
  }
  const caseCite = (): { text: string; n: number } => {
    const ed = r() < 0.6 ? pick(common) : pick(all)
    const year = int(ed.start, ed.end)
    const written = r() < 0.8 ? ed.key : pick(ed.strings)
    let s = `${pick(NAMES)} v. ${pick(NAMES)}, ${int(1, 999)} ${written} ${int(1, 2500)}`
    let n = 1
    if (r() < 0.4) s += `, ${int(1, 2500)}${r() < 0.3 ? '-' + int(1, 99) : ''}`
    if (r() < 0.15) { s += `, ${int(1, 200)} S. Ct. ${int(1, 3000)}`; n++ }
    s += r() < 0.5 ? ` (${pick(COURTS)} ${year})` : ` (${year})`
    if (r() < 0.2) s += ` (holding that the ${pick(WORDS)} was ${pick(WORDS)})`
    return { text: s + '.', n }
  }
  const parts: string[] = []
  let size = 0
  let planted = 0
  let lastVol = '512'
  let lastRep = 'U.S.'
  while (size < targetChars) {
    const x = r()
    let s: string
    if (x < 0.45) s = sentence()
    else if (x < 0.7) {
      const c = caseCite()
      planted += c.n
      const m = /, (\d+) (.+?) \d+/.exec(c.text)
      if (m) { lastVol = m[1]; lastRep = m[2] }
      s = `See ${c.text}`
    } else if (x < 0.75) { s = `Id. at ${int(1, 900)}.`; planted++ }
    else if (x < 0.78) { s = `${pick(NAMES)}, supra, at ${int(1, 900)}.`; planted++ }
    else if (x < 0.81) { s = `${lastVol} ${lastRep}, at ${int(1, 2500)}.`; planted++ }
    else if (x < 0.85) { s = `See ${pick(LAWS)}.`; planted++ }
    else if (x < 0.87) { s = `${int(1, 130)} ${pick(JOURNALS)} ${int(1, 2000)} (${int(1950, 2023)}).`; planted++ }
    else if (x < 0.92) { s = `Cf. ${pick(examples)}.`; planted++ }
    else s = pick(DECOYS)
    parts.push(s)
    size += s.length + 1
    if (r() < 0.08) { parts.push('\n\n'); size += 2 }
  }
  return { text: parts.join(' '), planted }
}

// ---------------------------------------------------------------------------------------------
// timing

const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)] }
const fmt = (n: number) => n >= 1e6 ? `${(n / 1e6).toFixed(2)} M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)} k` : n.toFixed(0)

log(`building text (~${targetMb} MB, deterministic)…`)
const t0 = performance.now()
const { text, planted } = buildText(Math.round(targetMb * 1024 * 1024))
log(`  ${text.length.toLocaleString()} chars, ${planted.toLocaleString()} planted citations, built in ${(performance.now() - t0).toFixed(0)} ms`)
if (flags['save-text']) writeFileSync(flags['save-text'], text)

const tLoad = performance.now()
const size = warmUp()
const loadMs = performance.now() - tLoad
log(`matcher: ${size.strings} strings, ${size.editions} editions/codes/journals, ${size.patterns} compiled patterns, built in ${loadMs.toFixed(0)} ms (once, at first use)`)

log('warm-up…')
let found: FoundCitation[] = extractCitations(text.slice(0, 200_000))
found = extractCitations(text)
const times: number[] = []
for (let k = 0; k < runs; k++) {
  const a = performance.now()
  found = extractCitations(text)
  times.push(performance.now() - a)
  progress('timed runs', k + 1, runs, `${times[k].toFixed(0)} ms`)
}
const ms = median(times)
const byKind = new Map<string, number>()
for (const c of found) byKind.set(c.kind, (byKind.get(c.kind) ?? 0) + 1)
const ours = { ms, charsPerSec: text.length / (ms / 1000), citesPerSec: found.length / (ms / 1000), count: found.length }
log(`ours: median ${ms.toFixed(1)} ms over ${runs} runs (${times.map((t) => t.toFixed(0)).join(', ')} ms)`)

// ---------------------------------------------------------------------------------------------
// eyecite

interface EyeOut { seconds: number; load_seconds: number; version: string; counts: Record<string, number>; full: [number, number, string, string, string, string | null][] }

function ensureEyecite(): string | null {
  const venv = path.join(repo, '.data/venv-eyecite')
  const py = path.join(venv, 'bin/python')
  const check = () => existsSync(py) && spawnSync(py, ['-c', 'import eyecite'], { stdio: 'ignore' }).status === 0
  if (check()) return py
  log('eyecite not installed: creating .data/venv-eyecite and running pip install eyecite…')
  mkdirSync(path.dirname(venv), { recursive: true })
  const mk = spawnSync('python3', ['-m', 'venv', venv], { stdio: 'inherit', timeout: 120_000 })
  if (mk.status !== 0) return null
  const pip = spawnSync(path.join(venv, 'bin/pip'), ['install', '-q', 'eyecite'], { stdio: 'inherit', timeout: 300_000 })
  if (pip.status !== 0) return null
  return check() ? py : null
}

const PY = `
import json, logging, sys, time
logging.disable(logging.CRITICAL)   # eyecite logs every overlap it resolves
t = time.perf_counter()
import eyecite
from eyecite import get_citations
from eyecite.models import FullCaseCitation
get_citations("See 1 U.S. 1 (1999). Id. at 2.")   # builds eyecite's tokenizer
load = time.perf_counter() - t
text = open(sys.argv[1], encoding="utf-8").read()
t = time.perf_counter()
cites = get_citations(text)
sec = time.perf_counter() - t
counts = {}
full = []
for c in cites:
    counts[type(c).__name__] = counts.get(type(c).__name__, 0) + 1
    if isinstance(c, FullCaseCitation):
        s, e = c.span()
        g = c.groups
        try:
            cr = c.corrected_reporter()
        except Exception:
            cr = None
        full.append([s, e, g.get("volume"), g.get("reporter"), g.get("page"), cr])
try:
    from importlib.metadata import version
    v = version("eyecite")
except Exception:
    v = "?"
json.dump({"seconds": sec, "load_seconds": load, "version": v, "counts": counts, "full": full}, open(sys.argv[2], "w"))
`

let eye: EyeOut | null = null
let eyeText = text
if (useEyecite) {
  if (eyeText.length > eyeChars) {
    const cut = text.indexOf('. ', eyeChars)
    eyeText = text.slice(0, cut < 0 ? eyeChars : cut + 1)
  }
  const py = ensureEyecite()
  if (!py) log('eyecite unavailable: comparison skipped')
  else {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cite-bench-'))
    try {
      const tf = path.join(dir, 'text.txt')
      const of = path.join(dir, 'out.json')
      const sf = path.join(dir, 'run.py')
      writeFileSync(tf, eyeText)
      writeFileSync(sf, PY)
      log(`running eyecite.get_citations on the first ${eyeText.length.toLocaleString()} chars of the same text (one timed run, ~${Math.ceil(eyeText.length / 9000)} s)…`)
      const started = Date.now()
      const child = spawn(py, [sf, tf, of], { stdio: ['ignore', 'inherit', 'inherit'] })
      const tick = setInterval(() => log(`  eyecite running… ${Math.round((Date.now() - started) / 1000)} s`), 10_000)
      const kill = setTimeout(() => child.kill('SIGKILL'), 150_000)
      const status = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
      clearInterval(tick)
      clearTimeout(kill)
      if (status === 0) eye = JSON.parse(readFileSync(of, 'utf8')) as EyeOut
      else log(`eyecite run failed or timed out (status ${status}): comparison skipped`)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }
}

// ---------------------------------------------------------------------------------------------
// summary

const rows: [string, string, string][] = [
  ['text', `${(text.length / 1e6).toFixed(2)} M chars`, `${planted.toLocaleString()} planted`],
  ['ours: median time', `${ours.ms.toFixed(1)} ms`, `${runs} runs`],
  ['ours: chars/s', fmt(ours.charsPerSec), ''],
  ['ours: citations/s', fmt(ours.citesPerSec), `${ours.count.toLocaleString()} found`],
  ['ours: by kind', [...byKind].map(([k, v]) => `${k} ${v}`).join(', '), ''],
]
let recallLine: string | null = null
if (eye) {
  // ours on exactly the text eyecite got
  extractCitations(eyeText)
  const t2: number[] = []
  let onSlice: FoundCitation[] = []
  for (let k = 0; k < runs; k++) { const a = performance.now(); onSlice = extractCitations(eyeText); t2.push(performance.now() - a) }
  const sliceMs = median(t2)
  const byStart = new Map<number, FoundCitation[]>()
  for (const c of onSlice) if (c.kind === 'full_case') { const l = byStart.get(c.start) ?? []; l.push(c); byStart.set(c.start, l) }
  let same = 0
  let sameReporter = 0
  const missed: string[] = []
  const disagree: string[] = []
  for (const [s0, , vol, rep, page, corrected] of eye.full) {
    // eyecite's span of a cite without volume starts at the space before the reporter: skip it
    let s = s0
    while (s < eyeText.length && /\s/.test(eyeText[s])) s++
    const hit = (byStart.get(s) ?? []).find((c) => (c.volume ?? null) === vol && (c.page ?? null) === page)
    if (hit) {
      same++
      if (hit.candidates.some((x) => x.reporter === corrected || x.reporter === rep)) sameReporter++
      else if (disagree.length < 8) disagree.push(`${hit.matchedText}: eyecite ${corrected ?? rep}, ours ${hit.candidates.map((x) => x.reporter).join(' / ')}`)
    } else if (missed.length < 15) missed.push(`${vol} ${rep} ${page} @${s}: ${JSON.stringify(eyeText.slice(Math.max(0, s - 10), s + 40))}`)
  }
  const eyeStarts = new Set(eye.full.map((f) => { let s = f[0]; while (/\s/.test(eyeText[s] ?? '')) s++; return s }))
  const extra = [...byStart.keys()].filter((s) => !eyeStarts.has(s)).length
  const eyeFull = eye.full.length
  const oursFull = onSlice.filter((c) => c.kind === 'full_case').length
  const ratio = eye.seconds / (sliceMs / 1000)
  rows.push(
    ['eyecite comparison text', `${(eyeText.length / 1e6).toFixed(2)} M chars`, 'prefix of the text above'],
    ['eyecite version', eye.version, `tokenizer/load ${eye.load_seconds.toFixed(1)} s (not timed)`],
    ['eyecite: time', `${(eye.seconds * 1000).toFixed(0)} ms`, '1 run'],
    ['ours on the same text', `${sliceMs.toFixed(1)} ms`, `median of ${runs}`],
    ['eyecite: chars/s', fmt(eyeText.length / eye.seconds), `ours ${fmt(eyeText.length / (sliceMs / 1000))}`],
    ['eyecite: citations', Object.entries(eye.counts).map(([k, v]) => `${k} ${v}`).join(', '), ''],
    ['speed ratio (ours / eyecite)', `${ratio.toFixed(1)}×`, ratio >= 20 ? 'target ≥ 20× met' : 'BELOW the 20× target'],
    ['full case cites', `ours ${oursFull}`, `eyecite ${eyeFull}; ${extra} of ours at starts eyecite has none`],
    ['recall vs eyecite', `${((same / Math.max(1, eyeFull)) * 100).toFixed(2)} %`, `${same}/${eyeFull} same start+volume+page`],
    ['reporter agreement', `${((sameReporter / Math.max(1, same)) * 100).toFixed(2)} %`, 'of those, eyecite\'s reporter among our candidates'],
  )
  if (missed.length) recallLine = 'first eyecite full cites we miss:\n  ' + missed.join('\n  ')
  if (disagree.length) recallLine = (recallLine ? recallLine + '\n' : '') + 'reporter disagreements:\n  ' + disagree.join('\n  ')
}
const w0 = Math.max(...rows.map((r) => r[0].length))
const w1 = Math.max(...rows.map((r) => (r[1].length <= 24 ? r[1].length : 0)))
const line = '='.repeat(w0 + w1 + 60)
log('\n' + line)
log('citation extraction benchmark')
log(line)
for (const [a, b, c] of rows) {
  if (b.length <= 24) log(`${a.padEnd(w0)}  ${b.padStart(w1)}  ${c}`)
  else log(`${a.padEnd(w0)}  ${b}${c ? '  ' + c : ''}`)
}
log(line)
if (recallLine) log(recallLine)
