import t from 'tap'
import { randomBytes } from 'node:crypto'
import { compressFrameSync } from 'lz4-napi'
import { decompressBatch, SYNC_DECOMPRESS_BYTES } from '../../../core/kafka-compression.js'

t.test('record batches come back whole, small ones inline and large ones from the thread pool', async (t) => {
  const small = Buffer.from('{"case_name":"A v. B"}'.repeat(400))
  const smallFrame = compressFrameSync(small)
  t.ok(smallFrame.length <= SYNC_DECOMPRESS_BYTES, 'a batch of the size ours are')
  t.ok((await decompressBatch(smallFrame)).equals(small))
  // Incompressible bytes: a frame over the inline bound.
  const large = randomBytes(SYNC_DECOMPRESS_BYTES + 4096)
  const largeFrame = compressFrameSync(large)
  t.ok(largeFrame.length > SYNC_DECOMPRESS_BYTES, 'a batch over the bound')
  t.ok((await decompressBatch(largeFrame)).equals(large))
  await t.rejects(decompressBatch(smallFrame.subarray(0, smallFrame.length >> 1)), 'a cut frame is refused, as the pool refuses it')
})
