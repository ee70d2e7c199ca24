/**
 * docker-compose.yml runs one container per role: every role `lds run` knows has a service, so a
 * Docker user gets the search index, alerts and webhooks, not only the tables and the API; and
 * the search indexer gets its node options there as from `npm start`.
 */
import t from 'tap'
import { readFileSync } from 'node:fs'
import { PROCESSOR_ROLES, SEARCH_INDEX_NODE_OPTIONS } from '../../../bin/runtime.js'
import { projectFile } from '../../../core/programs.js'

const compose = readFileSync(projectFile('docker-compose.yml'), 'utf8')
const scripts = JSON.parse(readFileSync(projectFile('package.json'), 'utf8')).scripts as Record<string, string>
const ROLES: readonly string[] = [...PROCESSOR_ROLES, 'api']

/** A service's block: from its name to the blank line after it. */
const service = (name: string) => {
  const at = compose.indexOf(`\n  ${name}:\n`)
  return at < 0 ? '' : compose.slice(at, compose.indexOf('\n\n', at + 1))
}

t.test('every role runs in some service', async (t) => {
  const started = new Set([...compose.matchAll(/lds run --roles ([\w,-]+)/g)].flatMap((m) => m[1].split(',')))
  for (const role of ROLES) t.ok(started.has(role), `a service runs ${role}`)
  for (const role of started) t.ok(ROLES.includes(role), `${role} is a role lds run knows`)
})

t.test('the search indexer gets its node options from npm start and in its service', async (t) => {
  t.match(scripts.start, ` ${SEARCH_INDEX_NODE_OPTIONS} `)
  t.match(service('search-index'), `NODE_OPTIONS: ${SEARCH_INDEX_NODE_OPTIONS}\n`)
  t.notMatch(service('api'), 'NODE_OPTIONS', 'not the API: no faster there, and it can hold more memory')
  t.notMatch(scripts.lds, SEARCH_INDEX_NODE_OPTIONS, 'nor `npm run lds`, which also starts API processes')
})
