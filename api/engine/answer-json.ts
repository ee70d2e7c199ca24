/**
 * A list answer as JSON text, the same text JSON.stringify gives, with each result object's text
 * remembered for as long as the object lives: objects the object cache keeps are serialized once,
 * not on every list page that shows them.
 */
const texts = new WeakMap<object, string>()

/** Says that `obj` is written as `json` (a text it was parsed from): the answer uses the text. */
export function rememberJson<T extends object>(obj: T, json: string): T {
  texts.set(obj, json)
  return obj
}

function textOf(obj: unknown): string {
  if (obj === null || typeof obj !== 'object') return JSON.stringify(obj) ?? 'null'
  let t = texts.get(obj)
  if (t === undefined) { t = JSON.stringify(obj); texts.set(obj, t) }
  return t
}

export function answerJson(answer: Record<string, unknown>): string {
  const parts: string[] = []
  for (const [k, v] of Object.entries(answer)) {
    if (v === undefined || typeof v === 'function') continue
    const value = k === 'results' && Array.isArray(v) ? `[${v.map(textOf).join(',')}]` : JSON.stringify(v)
    parts.push(`${JSON.stringify(k)}:${value}`)
  }
  return `{${parts.join(',')}}`
}
