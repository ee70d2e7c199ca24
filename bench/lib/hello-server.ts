/**
 * The framework's ceiling: a Fastify hello-world (no logger, one route, a small JSON body),
 * run as its own process by bench/api.ts.   PORT=… node --import tsx bench/lib/hello-server.ts
 * With BODY_FILE it also answers GET /same-bytes/:id/ with that file's text as JSON: the framework
 * sending an answer as large as a detail, with no work to find it.
 */
import { readFileSync } from 'node:fs'
import Fastify from 'fastify'

const port = Number(process.env.PORT ?? 0)
const app = Fastify({ logger: false })
app.get('/', async () => ({ hello: 'world' }))
const body = process.env.BODY_FILE ? readFileSync(process.env.BODY_FILE, 'utf8') : undefined
if (body !== undefined) app.get('/same-bytes/:id/', (_req, reply) => reply.type('application/json; charset=utf-8').send(body))
await app.listen({ port, host: '127.0.0.1' })
const stop = () => { void app.close().then(() => process.exit(0)) }
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
