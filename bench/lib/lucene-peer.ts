/**
 * Apache Lucene 10.6 as a peer of bench/search.ts (the engine inside Elasticsearch): the Java
 * program in bench/lib/lucene/ indexes the peers' CSV file in one thread, with the same fields,
 * boosts and tokens as ours (BM25Similarity, BooleanQuery of the default fields, PhraseQuery,
 * TermQuery and LongPoint range filters, sort by a doc-values date), and answers each query over
 * its stdin/stdout line protocol (see LuceneSearchPeer.java), so each query is timed round trip,
 * as PostgreSQL's are.
 *
 * Needs a JDK 21+ (the newest /usr/lib/jvm/temurin-*; the default java 17 is too old) and Maven;
 * the jar is built once with `mvn -q package` into <dataDir>/bench/lucene/build and rebuilt when
 * the pom or the source changes. `findLuceneRuntime` says in one line why the peer cannot run.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync, closeSync } from 'node:fs'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { PROJECT_ROOT } from '../../core/config.js'
import { runCommand } from '../../infra/process.js'
import { SEARCH_TYPES } from '../../domain/search/fields.js'
import { PEER_COLUMNS } from './search-peer-file.js'
import type { PeerLoad } from './pg-search-peer.js'
import type { Query, SearchEngine } from './search-queries.js'

const PROJECT = path.join(PROJECT_ROOT, 'bench', 'lib', 'lucene')
const MAIN_CLASS = 'lds.bench.LuceneSearchPeer'
const MIN_JAVA = 21

export interface LuceneLoad extends PeerLoad { mergeSeconds: number; segments: number; bytes: number }

export interface LucenePeer {
  load(csvFile: string): Promise<LuceneLoad>
  engine(): SearchEngine
  stop(): Promise<void>
}

/** JAVA_HOME of the newest /usr/lib/jvm/temurin-N (N ≥ 21) and the mvn binary, or why there is none. */
export function findLuceneRuntime(): { javaHome: string } | { missing: string } {
  const jvm = '/usr/lib/jvm'
  const homes = existsSync(jvm)
    ? readdirSync(jvm)
      .map((d) => ({ home: path.join(jvm, d), major: Number(/^temurin-(\d+)/.exec(d)?.[1] ?? 0) }))
      .filter((j) => j.major >= MIN_JAVA && existsSync(path.join(j.home, 'bin', 'java')))
      .sort((a, b) => b.major - a.major)
    : []
  if (!homes.length) return { missing: `no JDK ${MIN_JAVA}+ at ${jvm}/temurin-* (Lucene 10 needs one; e.g. the temurin-25-jdk package)` }
  const mvnOnPath = (process.env.PATH ?? '').split(path.delimiter).some((d) => d && existsSync(path.join(d, 'mvn')))
  if (!mvnOnPath) return { missing: 'mvn (Maven) is not on PATH; it builds the Lucene peer from bench/lib/lucene/pom.xml' }
  return { javaHome: homes[0].home }
}

/** A digest of the pom and every source file: the built jar is reused while it is the same. */
function sourceDigest(): string {
  const hash = createHash('sha256')
  const walk = (dir: string): string[] => readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]))
  for (const f of [path.join(PROJECT, 'pom.xml'), ...walk(path.join(PROJECT, 'src')).sort()]) hash.update(f).update(readFileSync(f))
  return hash.digest('hex')
}

/** Builds the peer's jar into `buildDir` unless it is there for the current source; returns its classpath. */
export async function ensureLuceneJar(buildDir: string, javaHome: string, log: (m: string) => void): Promise<string> {
  const jar = path.join(buildDir, 'lucene-search-peer.jar')
  const stamp = path.join(buildDir, 'source.sha256')
  const digest = sourceDigest()
  if (!existsSync(jar) || !existsSync(stamp) || readFileSync(stamp, 'utf8') !== digest) {
    log(`Lucene: building the peer (mvn package with JAVA_HOME=${javaHome}; the first build fetches Lucene from Maven Central)`)
    await runCommand('mvn', ['-q', '-B', '-f', path.join(PROJECT, 'pom.xml'), `-Dpeer.build.dir=${buildDir}`, 'package'], { env: { JAVA_HOME: javaHome } })
    writeFileSync(stamp, digest)
  }
  return [jar, path.join(buildDir, 'lib', '*')].join(path.delimiter)
}

/** The request line of a query: sort, text, phrase, field, the court filter and the date range (tab-separated). */
function searchLine(q: Query): string {
  let text = q.q
  let field = '*'
  const fielded = /^(\w+):(.+)$/.exec(text)
  if (fielded && SEARCH_TYPES.o.byName.get(fielded[1])?.kind === 'text') { field = fielded[1]; text = fielded[2] }
  const phrase = text.startsWith('"') && text.endsWith('"') && text.length > 1
  if (phrase) text = text.slice(1, -1)
  const f = q.filters
  const parts = ['search', q.byDate ? 'dateFiled' : 'score', text, phrase ? '1' : '0', field,
    f ? 'court_id' : '', f?.court ?? '', f ? 'dateFiled' : '', f?.from ?? '', f?.to ?? '']
  if (parts.some((p) => /[\t\n\r]/.test(p))) throw new Error(`Lucene peer: a tab or line break in query ${JSON.stringify(q.q)}`)
  return parts.join('\t')
}

/** The field declarations of the CSV's columns, from our search type's spec (names, kinds, boosts, defaults). */
function fieldLines(): string[] {
  return PEER_COLUMNS.map((column) => {
    const f = SEARCH_TYPES.o.fields.find((x) => x.column === column)
    if (!f) throw new Error(`Lucene peer: column ${column} is not a field of search type o`)
    const kind = column === 'id' ? 'id' : f.kind
    return ['field', f.name, column, kind, String(f.boost), f.default ? '1' : '0'].join('\t')
  })
}

/** `dir` holds the build (shared) and the index named `index` (one per run's database name). */
export async function startLucenePeer(o: { dir: string; index: string; javaHome: string; log: (m: string) => void }): Promise<LucenePeer> {
  mkdirSync(o.dir, { recursive: true })
  const classpath = await ensureLuceneJar(path.join(o.dir, 'build'), o.javaHome, o.log)
  const logFd = openSync(path.join(o.dir, 'peer.log'), 'a')
  let child: ChildProcess
  try {
    child = spawn(path.join(o.javaHome, 'bin', 'java'), [
      '-Xms2g', '-Xmx2g', '--add-modules', 'jdk.incubator.vector', '--enable-native-access=ALL-UNNAMED', '-cp', classpath, MAIN_CLASS,
    ], { stdio: ['pipe', 'pipe', logFd] })
  } finally { closeSync(logFd) }
  const killOnExit = () => child.kill('SIGKILL')
  process.once('exit', killOnExit)
  const answers = createInterface({ input: child.stdout! })[Symbol.asyncIterator]()
  const exited = new Promise<never>((_, reject) => child.once('exit', (code, sig) => reject(new Error(`Lucene peer exited (${sig ?? code}); see ${path.join(o.dir, 'peer.log')}`))))
  exited.catch(() => {})
  // one request at a time: the protocol answers in order
  let queue: Promise<unknown> = Promise.resolve()
  const request = <T>(line: string): Promise<T> => {
    const next = queue.then(async () => {
      child.stdin!.write(line + '\n')
      const got = await Promise.race([answers.next(), exited])
      if (got.done) throw new Error('Lucene peer closed its output')
      const answer = JSON.parse(got.value) as T & { error?: string }
      if (answer.error) throw new Error(`Lucene peer: ${answer.error}`)
      return answer
    })
    queue = next.catch(() => {})
    return next
  }
  for (const line of fieldLines()) await request(line)
  const indexDir = path.join(o.dir, `index-${o.index}`)
  return {
    async load(csvFile) {
      const r = await request<{ docs: number; seconds: number; cpuSeconds: number; mergeSeconds: number; bytes: number; segments: number }>(['index', csvFile, indexDir].join('\t'))
      return {
        docs: r.docs, seconds: r.seconds, docsPerSecond: r.docs / r.seconds, size: `${(r.bytes / 2 ** 20).toFixed(0)} MB`,
        cpuSeconds: r.cpuSeconds, cpuMicrosPerDoc: (r.cpuSeconds * 1e6) / r.docs, mergeSeconds: r.mergeSeconds, segments: r.segments, bytes: r.bytes,
      }
    },
    engine() {
      return {
        name: 'Lucene',
        // a long-running Elasticsearch node is JIT-compiled; a fresh JVM interprets at first
        warmUpRuns: 30,
        async run(q) {
          const r = await request<{ hits: number; ids: number[] }>(searchLine(q))
          return { hits: r.hits, top: r.ids }
        },
      }
    },
    async stop() {
      process.removeListener('exit', killOnExit)
      if (child.exitCode === null && child.signalCode === null) {
        child.stdin!.end('quit\n')
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
        await exited.catch(() => {})
        clearTimeout(timer)
      }
      rmSync(indexDir, { recursive: true, force: true })
    },
  }
}
