/**
 * GET /api/rest/v4/asyncapi/ on a deployment: the public feed's channels at this deployment's
 * topic names, each message naming the registry's current version and id of its schema, which a
 * consumer's deserializer then finds under that id.
 */
import t from 'tap'
import { testStack, waitFor } from '../helpers/stack.js'
import { buildApp } from '../../api/app.js'
import { registerEntitySchemas } from '../../core/schema-registration.js'

t.test('the feed document names this deployment\'s topics and the registry\'s schema versions', async (t) => {
  const rt = await testStack(t)
  const app = await buildApp({ cfg: rt.cfg, db: rt.db, catalogue: rt.catalogue, log: rt.log })
  t.teardown(() => app.close())
  const res = await app.inject({ method: 'GET', url: '/api/rest/v4/asyncapi/' })
  t.equal(res.statusCode, 200)
  t.match(res.headers['content-type'], /^application\/json/)
  const doc = res.json()
  t.equal(doc.asyncapi, '3.0.0')
  t.equal(doc.channels.dockets.address, `${rt.cfg.topicPrefix}entity.dockets`)
  t.equal(doc.channels.users, undefined, 'the accounts topic is not part of the feed')

  const ids = await registerEntitySchemas(rt.cfg, rt.registry, rt.catalogue)
  // A registry slower than the route's timeout leaves versions out of one answer, not the next ones.
  const message = await waitFor(async () => {
    const m = (await app.inject({ method: 'GET', url: '/api/rest/v4/asyncapi/' })).json().components.messages.DocketsEvent
    return m['x-registry-schema-id'] === undefined ? undefined : m
  }, 'the registry\'s versions in the document', 60_000, 500)
  t.equal(message['x-registry-schema-id'], ids.get('dockets'), 'the id the publisher writes in every value')
  t.type(message['x-registry-version'], 'number')
  const fromRegistry = await rt.registry.client.getSchema(message['x-registry-schema-id'])
  t.ok(fromRegistry, 'a consumer finds the schema under that id')
})
