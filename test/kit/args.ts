/**
 * Command-line flags of benchmarks and suites through node:util parseArgs: every flag declared
 * once with its default and help text, numbers checked, `--help` printed from the declarations,
 * and an unknown flag a clear error.
 */
import { parseArgs } from 'node:util'

export type FlagSpec =
  | { type: 'boolean'; help: string }
  | { type: 'string'; default: string; help: string }
  | { type: 'number'; default: number; help: string }

type Value<S extends FlagSpec> = S extends { type: 'boolean' } ? boolean : S extends { type: 'number' } ? number : string
export type Flags<F extends Record<string, FlagSpec>> = { [K in keyof F]: Value<F[K]> }

/** An unknown flag, a missing or a bad value: the reason and the usage on stderr, exit code 2. */
function fail(reason: string, command: string, flags: Record<string, FlagSpec>): never {
  console.error(`${reason}\n${usage(command, flags)}`)
  process.exit(2)
}

export function usage(command: string, flags: Record<string, FlagSpec>): string {
  const lines = Object.entries(flags).map(([name, s]) => {
    const left = s.type === 'boolean' ? `--${name}` : `--${name} ${s.type === 'number' ? 'N' : 'VALUE'}`
    const dflt = s.type === 'boolean' || s.default === '' ? '' : ` (default ${s.default})`
    return `  ${left.padEnd(26)} ${s.help}${dflt}`
  })
  return [`usage: ${command} [flags]`, ...lines, `  ${'--help'.padEnd(26)} this text`].join('\n')
}

/**
 * Parses `argv` (default: this process's arguments) against `flags`. Defaults may depend on
 * earlier flags (e.g. --quick): pass a function of the parsed booleans.
 */
export function parseFlags<F extends Record<string, FlagSpec>>(command: string, flags: F | ((booleans: Record<string, boolean>) => F), argv = process.argv.slice(2)): Flags<F> {
  const declared = typeof flags === 'function' ? flags({}) : flags
  const options = Object.fromEntries([
    ...Object.entries(declared).map(([name, s]) => [name, { type: s.type === 'boolean' ? 'boolean' as const : 'string' as const }]),
    ['help', { type: 'boolean' as const, short: 'h' }],
  ])
  let values: Record<string, string | boolean | undefined>
  try {
    values = parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values as typeof values
  } catch (err) {
    return fail((err as Error).message, command, declared)
  }
  if (values.help) { console.log(usage(command, declared)); process.exit(0) }
  const booleans = Object.fromEntries(Object.entries(declared).filter(([, s]) => s.type === 'boolean').map(([name]) => [name, values[name] === true]))
  const resolved = typeof flags === 'function' ? flags(booleans) : flags
  const out: Record<string, string | number | boolean> = {}
  for (const [name, s] of Object.entries(resolved)) {
    const raw = values[name]
    if (s.type === 'boolean') out[name] = raw === true
    else if (s.type === 'string') out[name] = raw === undefined ? s.default : String(raw)
    else {
      const n = raw === undefined ? s.default : Number(String(raw).replace(/_/g, ''))
      if (!Number.isFinite(n)) fail(`--${name} needs a number, not ${JSON.stringify(raw)}`, command, resolved)
      out[name] = n
    }
  }
  return out as Flags<F>
}
