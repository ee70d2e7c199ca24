/**
 * The framework's ceiling: a Fastify hello-world (no logger, one route, a small JSON body),
 * run as its own process by bench/api.ts.   PORT=… node --import tsx bench/lib/hello-server.ts
 */
import Fastify from 'fastify'

const port = Number(process.env.PORT ?? 0)
const app = Fastify({ logger: false })
app.get('/', async () => ({ hello: 'world' }))
await app.listen({ port, host: '127.0.0.1' })
const stop = () => { void app.close().then(() => process.exit(0)) }
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
