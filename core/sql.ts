/**
 * The one way SQL is built. Values always become typed ClickHouse placeholders
 * (`{p1:Int64}`) sent apart from the statement; identifiers must pass `ident`, which only
 * accepts plain snake_case names (and callers take those from the catalogue, never from a request).
 */
const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/

export class Identifier {
  constructor(readonly name: string) {
    if (!IDENT.test(name)) throw new Error(`invalid SQL identifier: ${JSON.stringify(name)}`)
  }
}

/** A value with an explicit ClickHouse type, e.g. param('2024-01-01', 'Date32'). */
export class TypedParam {
  constructor(readonly value: unknown, readonly type: string) {
    if (!/^[A-Za-z0-9_(), ']+$/.test(type)) throw new Error(`invalid ClickHouse type: ${type}`)
  }
}

/** Trusted SQL text written by the programmer (keywords, operators); never pass request data. */
export class Raw { constructor(readonly text: string) {} }

export class Sql {
  constructor(readonly strings: readonly string[], readonly values: readonly unknown[]) {}
}

export type SqlValue = unknown

export function sql(strings: TemplateStringsArray, ...values: SqlValue[]): Sql {
  return new Sql([...strings], values)
}

export const ident = (name: string): Identifier => new Identifier(name)
/** A dotted identifier such as db.table. */
export const qualified = (...names: string[]): Raw => new Raw(names.map((n) => `\`${new Identifier(n).name}\``).join('.'))
export const param = (value: unknown, type: string): TypedParam => new TypedParam(value, type)
export const raw = (text: string): Raw => new Raw(text)
export const empty = new Sql([''], [])

export function join(parts: readonly Sql[], separator: string): Sql {
  if (parts.length === 0) return empty
  const strings: string[] = ['']
  const values: unknown[] = []
  parts.forEach((p, i) => {
    if (i > 0) strings[strings.length - 1] += separator
    values.push(p)
    strings.push('')
  })
  return new Sql(strings, values)
}

function inferType(v: unknown): string {
  if (v === null || v === undefined) return 'Nullable(String)'
  if (typeof v === 'boolean') return 'Bool'
  if (typeof v === 'bigint') return 'Int64'
  if (typeof v === 'number') return Number.isInteger(v) ? 'Int64' : 'Float64'
  if (typeof v === 'string') return 'String'
  if (Array.isArray(v)) {
    const first = v.find((x) => x !== null && x !== undefined)
    return `Array(${first === undefined ? 'String' : inferType(first)})`
  }
  throw new Error(`cannot bind a value of type ${typeof v}`)
}

export interface CompiledSql { query: string; query_params: Record<string, unknown> }

export function compile(q: Sql): CompiledSql {
  const params: Record<string, unknown> = {}
  let n = 0
  const walk = (s: Sql): string => {
    let out = s.strings[0]
    s.values.forEach((v, i) => {
      if (v instanceof Sql) out += walk(v)
      else if (v instanceof Identifier) out += `\`${v.name}\``
      else if (v instanceof Raw) out += v.text
      else {
        const name = `p${++n}`
        const typed = v instanceof TypedParam ? v : new TypedParam(v, inferType(v))
        params[name] = typed.value
        out += `{${name}:${typed.type}}`
      }
      out += s.strings[i + 1]
    })
    return out
  }
  return { query: walk(q), query_params: params }
}
