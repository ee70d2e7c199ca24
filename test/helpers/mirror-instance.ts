/**
 * An instance of the service for the mirror tests and benchmark: its own topic prefix, ClickHouse
 * database and API port on the shared local infrastructure, with the table sink running (what a
 * v4 list needs), a user's token, and everything removed when the test ends.
 */
import type { Test } from 'tap'
import type { FastifyInstance } from 'fastify'
import { testStack, testUser } from './stack.js'
import { startProcessors, type Runtime } from '../../bin/runtime.js'
import { buildApp } from '../../api/app.js'
import { freePort } from '../kit/ports.js'

export interface Instance { rt: Runtime; app: FastifyInstance; root: string; token: string; get(path: string): Promise<{ status: number; body: any }> }

export async function startInstance(t: Test, name: string): Promise<Instance> {
  // The tests read every list many times over: no user throttle in the way.
  const rt = await testStack(t, { LDS_RATE_USER: '10000000/hour' })
  const processors = await startProcessors(rt, ['table-sink'])
  t.teardown(async () => { for (const p of processors.reverse()) await p.stop() })
  const app = await buildApp(rt)
  const port = await freePort()
  await app.listen({ port, host: '127.0.0.1' })
  t.teardown(() => app.close())
  const token = await testUser(rt, `${name}-reader`, { app })
  const root = `http://127.0.0.1:${port}/api/rest/v4/`
  const headers = { authorization: `Token ${token}` }
  return {
    rt, app, root, token,
    async get(path) {
      const res = await app.inject({ url: path.startsWith('http') ? new URL(path).pathname + new URL(path).search : path, headers: { ...headers, host: `127.0.0.1:${port}` } })
      return { status: res.statusCode, body: res.statusCode === 200 ? res.json() : res.body }
    },
  }
}
