/**
 * Where the project's code runs from, and how to start one of its programs as a child process.
 *
 * The code runs from its TypeScript sources under tsx (`npm start`, the `lds` command, the
 * benchmarks), or from the tree `npm run build` compiles into dist/ (the test suite: loading the
 * service's modules under tsx cost every test file and every child it starts about a second of
 * CPU more). A program named by its source path (`bin/lds-cli.ts`) is started from whichever of
 * the two the caller runs from, so a compiled test starts compiled children.
 */
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/** True when this module was loaded from dist/ (compiled JavaScript), false under tsx. */
export const COMPILED = import.meta.url.endsWith('.js')

/** The folder the running modules live in: the project's root, or its dist/ folder. */
const CODE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

/** The project's root (package.json, data/, .data/), whichever tree the code runs from. */
export const PROJECT_ROOT = COMPILED ? path.dirname(CODE_ROOT) : CODE_ROOT

/** The compiled file of a source (`bin/lds-cli.ts` → `<root>/dist/bin/lds-cli.js`), whichever tree the caller runs from. */
export const compiledFile = (source: string): string => path.join(PROJECT_ROOT, 'dist', source.replace(/\.ts$/, '.js'))

/** The file that runs for a program given by its source path relative to the root (`bin/lds-cli.ts`). */
export function programFile(source: string): string {
  return COMPILED ? compiledFile(source) : path.join(PROJECT_ROOT, source)
}

/** Node's options that load a program's modules: tsx's loader under the sources, none when compiled. */
export const LOADER_ARGS: readonly string[] = COMPILED ? [] : ['--import', 'tsx']

/**
 * Arguments for `spawn(process.execPath, …)` that run a program (its source path, as for
 * programFile) with `args`; `nodeOptions` go before the program (`--cpu-prof`).
 */
export function programArgs(source: string, args: readonly string[] = [], nodeOptions: readonly string[] = []): string[] {
  return [...LOADER_ARGS, ...nodeOptions, programFile(source), ...args]
}

/** A file of the project by its path from the root (`data/courts/courts.json`), whichever tree the code runs from. */
export const projectFile = (...segments: string[]): string => path.join(PROJECT_ROOT, ...segments)
