/**
 * Reads a V8 CPU profile (`node --cpu-prof`) of a server and says where its time went during
 * given wall-clock windows (one per load case): the share that was idle, by area (a package of
 * node_modules, a folder of ours, node's internals, GC) and the functions with the most self time.
 * The profile's clock is not the wall clock: it is aligned on the moment the process ended
 * (`endWallMs`), which is good to a few tens of milliseconds.
 */
import { readFileSync } from 'node:fs'

interface CallFrame { functionName: string; url: string; lineNumber: number }
interface ProfileNode { id: number; callFrame: CallFrame }
interface CpuProfile { nodes: ProfileNode[]; startTime: number; endTime: number; samples: number[]; timeDeltas: number[] }

export interface Window { name: string; fromMs: number; toMs: number }
export interface WindowSummary { name: string; sampledMs: number; idlePct: number; areas: [string, number][]; functions: [string, number][] }

function areaOf(cf: CallFrame): string {
  if (!cf.url) return `(${cf.functionName || 'native'})`
  const url = cf.url.replace(/^file:\/\//, '')
  const nm = url.lastIndexOf('node_modules/')
  if (nm >= 0) {
    const parts = url.slice(nm + 'node_modules/'.length).split('/')
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]
  }
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`
  const rel = url.replace(/^.*?\/(api|core|schemas|streams|connectors|bin|domain|bench)\//, '$1/')
  return rel.split('/').slice(0, 2).join('/')
}

/** A function and where it is: `name area/file:line` (lines of TypeScript files are those of tsx's output). */
const label = (cf: CallFrame) => {
  if (!cf.url) return cf.functionName || '(native)'
  const area = areaOf(cf)
  const file = cf.url.startsWith('node:') ? cf.url
    : cf.url.includes('node_modules/') ? `${area}/${cf.url.split('/').pop()}`
    : cf.url.replace(/^file:\/\//, '').replace(/^.*?\/(api|core|schemas|streams|connectors|bin|domain|bench)\//, '$1/')
  return `${cf.functionName || '(anonymous)'} ${file}:${cf.lineNumber + 1}`
}

export function summarizeProfile(file: string, endWallMs: number, windows: readonly Window[], top = 12): WindowSummary[] {
  const p = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile
  const frames = new Map(p.nodes.map((n) => [n.id, n.callFrame]))
  // Sample i happened at startTime + sum(timeDeltas[0..i]) µs on the profile's clock.
  const offsetMs = endWallMs - p.endTime / 1000
  const acc = windows.map(() => ({ total: 0, idle: 0, areas: new Map<string, number>(), fns: new Map<string, number>() }))
  let t = p.startTime
  for (let i = 0; i < p.samples.length; i++) {
    t += p.timeDeltas[i] ?? 0
    const wall = t / 1000 + offsetMs
    const w = windows.findIndex((x) => wall >= x.fromMs && wall < x.toMs)
    if (w < 0) continue
    const dt = (p.timeDeltas[i + 1] ?? 0) / 1000
    const cf = frames.get(p.samples[i])!
    const a = acc[w]
    a.total += dt
    if (cf.functionName === '(idle)') { a.idle += dt; continue }
    const area = areaOf(cf)
    a.areas.set(area, (a.areas.get(area) ?? 0) + dt)
    const fn = label(cf)
    a.fns.set(fn, (a.fns.get(fn) ?? 0) + dt)
  }
  const pct = (m: Map<string, number>, total: number): [string, number][] =>
    [...m].sort((x, y) => y[1] - x[1]).slice(0, top).map(([k, v]) => [k, total ? (100 * v) / total : 0])
  return windows.map((w, i) => {
    const a = acc[i]
    const busy = a.total - a.idle
    return { name: w.name, sampledMs: a.total, idlePct: a.total ? (100 * a.idle) / a.total : 0, areas: pct(a.areas, busy), functions: pct(a.fns, busy) }
  })
}

export function formatSummary(s: WindowSummary): string {
  const lines = [`${s.name}: ${(s.sampledMs / 1000).toFixed(1)} s sampled, idle ${s.idlePct.toFixed(0)} %; of the busy time:`]
  lines.push(`  areas:     ${s.areas.slice(0, 8).map(([k, v]) => `${k} ${v.toFixed(0)}%`).join(', ')}`)
  for (const [k, v] of s.functions) lines.push(`  ${v.toFixed(1).padStart(5)} %  ${k}`)
  return lines.join('\n')
}
