/**
 * The citation network's processor on a test stack, driven batch by batch through its `sink`,
 * with the relink commands it asks for captured instead of sent.
 */
import type { Test } from 'tap'
import { testStack } from './stack.js'
import { openPublisher } from '../../core/events/publisher.js'
import { citationNetworkDef } from '../../streams/citation-network.js'
import type { RelinkCommand } from '../../schemas/events/index.js'

export async function citationNetworkUnderTest(t: Test) {
  const rt = await testStack(t)
  const publisher = await openPublisher(rt)
  t.teardown(() => publisher.stop())
  const relinks: RelinkCommand[] = []
  const def = citationNetworkDef({ ...rt, publisher, relink: { send: async (c) => { relinks.push(...c) } } })
  return { rt, def, relinks }
}
