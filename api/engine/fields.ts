/**
 * `fields` and `omit`: keep or drop keys of each result. v4 understands nested names
 * (`educations__school__name`) and keeps the parent of a kept child; v3 knows only top-level
 * names. `fields=` present but blank keeps nothing. Unknown names are ignored.
 */
type Tree = Map<string, Tree>

function toTree(names: string[], nested: boolean): Tree {
  const root: Tree = new Map()
  for (const name of names) {
    let node = root
    for (const part of nested ? name.split('__') : [name]) {
      if (!node.has(part)) node.set(part, new Map())
      node = node.get(part)!
    }
  }
  return root
}

function keep(value: unknown, tree: Tree): unknown {
  if (Array.isArray(value)) return value.map((v) => keep(v, tree))
  if (!value || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) {
    const sub = tree.get(k)
    if (!sub) continue
    out[k] = sub.size ? keep(v, sub) : v
  }
  return out
}

function drop(value: unknown, tree: Tree): unknown {
  if (Array.isArray(value)) return value.map((v) => drop(v, tree))
  if (!value || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) {
    const sub = tree.get(k)
    if (sub && sub.size === 0) continue
    out[k] = sub ? drop(v, sub) : v
  }
  return out
}

const split = (s: string) => s.split(',').map((x) => x.trim()).filter(Boolean)

export function compileFieldSelection(opts: { fields?: string; omit?: string; version: 'v3' | 'v4' }): ((obj: Record<string, unknown>) => Record<string, unknown>) | undefined {
  const nested = opts.version === 'v4'
  const fields = opts.fields !== undefined ? toTree(split(opts.fields), nested) : undefined
  const omit = opts.omit ? toTree(split(opts.omit), nested) : undefined
  if (!fields && !omit) return undefined
  return (obj) => {
    let out: unknown = obj
    if (fields) out = keep(out, fields)
    if (omit) out = drop(out, omit)
    return out as Record<string, unknown>
  }
}
