/**
 * Link tables (many-to-many: an id and two keys) become the parent's array column: a cluster's
 * `panel_ids`, an opinion's `joined_by_ids`, a court's `appeals_to_ids`, a person's `race` codes.
 * A run reads its link files first into memory (a parent key → its children, in file order), then
 * joins them into the parent rows as they are published; parents the run's row files did not
 * publish are left over for a read-modify-write of their current row (see bin/commands/ingest-bulk.ts).
 *
 * A link file is a complete snapshot of its relation: a parent it does not name has no children.
 */
import { RACE } from '../../schemas/catalogue/choices.js'
import type { BulkTable } from './tables.js'

type Key = string | number

/** The codes of a code table by id (races: id → 'w'); ids not known here are asked of `fallback`. */
export class CodeTable {
  private readonly byId = new Map<number, string>()
  private readonly codes: ReadonlySet<string>
  constructor(codes: readonly string[], private readonly fallback: (id: number) => Promise<string | undefined>) {
    this.codes = new Set(codes)
  }
  add(id: number, code: string) { this.byId.set(id, code) }
  /** A code for the text a link file holds: an id of the table, or (older files) the code itself. */
  async codeOf(text: string): Promise<string | undefined> {
    if (this.codes.has(text)) return text
    if (!/^\d+$/.test(text)) return undefined
    const id = Number(text)
    let code = this.byId.get(id)
    if (code === undefined) {
      code = await this.fallback(id)
      if (code !== undefined) this.byId.set(id, code)
    }
    return code
  }
}

export const RACE_CODES = RACE.map((c) => String(c.value))

export class LinkSet {
  /** resource → column → parent key → children */
  private readonly maps = new Map<string, Map<string, Map<Key, Key[]>>>()

  /** Adds one link row; returns why it is refused, or undefined. */
  async add(table: BulkTable, record: Record<string, unknown>, codes?: CodeTable): Promise<string | undefined> {
    if (table.target.kind !== 'link') throw new Error(`${table.table} is not a link table`)
    const { resource, column, parent, child } = table.target
    let value = record[child] as Key
    if (codes) {
      const code = await codes.codeOf(String(value))
      if (code === undefined) return `${child}: no code with id ${JSON.stringify(value)}`
      value = code
    }
    let byColumn = this.maps.get(resource)
    if (!byColumn) this.maps.set(resource, byColumn = new Map())
    let byParent = byColumn.get(column)
    if (!byParent) byColumn.set(column, byParent = new Map())
    const key = record[parent] as Key
    const children = byParent.get(key)
    if (!children) byParent.set(key, [value])
    else if (!children.includes(value)) children.push(value)
    return undefined
  }

  /** Declares that the run holds a link file for resource.column, even an empty one. */
  declare(table: BulkTable) {
    if (table.target.kind !== 'link') return
    let byColumn = this.maps.get(table.target.resource)
    if (!byColumn) this.maps.set(table.target.resource, byColumn = new Map())
    if (!byColumn.has(table.target.column)) byColumn.set(table.target.column, new Map())
  }

  /** The link columns this run gives for a resource. */
  columnsOf(resource: string): string[] {
    return [...(this.maps.get(resource)?.keys() ?? [])]
  }

  /** The parent's arrays (empty where the snapshot names no child), and forgets them: the parent is published. */
  take(resource: string, key: Key): Record<string, Key[]> {
    const out: Record<string, Key[]> = {}
    const byColumn = this.maps.get(resource)
    if (!byColumn) return out
    for (const [column, byParent] of byColumn) {
      out[column] = byParent.get(key) ?? []
      byParent.delete(key)
    }
    return out
  }

  /** Parents of a resource that no row file of the run published, with their arrays. */
  *leftovers(resource: string): Generator<[Key, Record<string, Key[]>]> {
    const byColumn = this.maps.get(resource)
    if (!byColumn) return
    const keys = new Set<Key>()
    for (const byParent of byColumn.values()) for (const k of byParent.keys()) keys.add(k)
    for (const k of keys) yield [k, this.take(resource, k)]
  }

  resources(): string[] { return [...this.maps.keys()] }
}
