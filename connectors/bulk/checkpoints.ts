/**
 * Where a bulk run stands, so that a run killed at any point and started again with the same
 * inputs neither loses nor repeats a row. Kept beside the data (`<data dir>/bulk-checkpoints/`),
 * one JSON file per set of inputs and deployment (topic prefix and database: a resumed run must
 * not skip rows because another deployment got them), written atomically after Kafka acknowledged what it records:
 * per file, how many records after the header were published (a resume re-reads those and skips
 * them), and whether the file is done. A file whose size or modification time changed starts
 * over. The checkpoint is removed when the run completes.
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'

interface FileMark { size: number; mtimeMs: number; records: number; done: boolean }
interface State { inputs: string[]; files: Record<string, FileMark>; steps: string[] }

export class Checkpoints {
  readonly path: string
  private state: State

  constructor(dir: string, files: readonly string[], restart = false, deployment = '') {
    const inputs = [...files].sort()
    this.path = path.join(dir, `${createHash('sha256').update([deployment, ...inputs].join('\n')).digest('hex').slice(0, 16)}.json`)
    this.state = { inputs, files: {}, steps: [] }
    if (!restart && existsSync(this.path)) {
      try { this.state = JSON.parse(readFileSync(this.path, 'utf8')) as State } catch { /* unreadable: start over */ }
    }
  }

  /** Whether an earlier run of these inputs left work here. */
  get resuming(): boolean { return Object.keys(this.state.files).length > 0 || this.state.steps.length > 0 }

  /** Records of `file` already published, and whether it is done; zero for a file that changed since. */
  of(file: string): { records: number; done: boolean } {
    const mark = this.state.files[file]
    if (!mark) return { records: 0, done: false }
    const st = statSync(file)
    if (st.size !== mark.size || st.mtimeMs !== mark.mtimeMs) return { records: 0, done: false }
    return { records: mark.records, done: mark.done }
  }

  /** Records that `records` of `file` are published (call only once Kafka has acknowledged them). */
  mark(file: string, records: number, done = false) {
    const st = statSync(file)
    this.state.files[file] = { size: st.size, mtimeMs: st.mtimeMs, records, done }
    this.save()
  }

  stepDone(step: string): boolean { return this.state.steps.includes(step) }
  markStep(step: string) { if (!this.stepDone(step)) { this.state.steps.push(step); this.save() } }

  /** The run completed: nothing to resume. */
  clear() { rmSync(this.path, { force: true }) }

  private save() {
    mkdirSync(path.dirname(this.path), { recursive: true })
    const tmp = `${this.path}.${process.pid}.tmp`
    writeFileSync(tmp, JSON.stringify(this.state))
    renameSync(tmp, this.path)
  }
}
