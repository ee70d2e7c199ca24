/**
 * LZ4 for Kafka record batches. KafkaJS ships GZIP only and leaves the other codecs to plugins;
 * entity topics were stored uncompressed (an opinion's message weighed what its row weighs
 * uncompressed in ClickHouse, 4.5 times its compressed size: docs/scale.md). LZ4 is Kafka's
 * cheapest codec to encode and decode, and every client (librdkafka, the Java client) reads it.
 * Kafka's LZ4 is the standard LZ4 frame format, which lz4-napi writes natively.
 *
 * Importing this module registers the codec for every KafkaJS client of the process; a consumer
 * of compressed topics needs it registered before its first fetch.
 */
// KafkaJS is CommonJS: its codec table is reachable through the default export only.
import kafkajs from 'kafkajs'
import { compressFrame, decompressFrame, decompressFrameSync } from 'lz4-napi'

const { CompressionCodecs, CompressionTypes } = kafkajs

/**
 * Record batches up to this size (compressed) are decompressed on the calling thread. Ours are
 * about 8.5 KB (250 opinions), tens of microseconds of work, for which a trip to the thread pool
 * and back cost more than the work: a fetch decodes its batches one after another, each waiting
 * for its trip. Larger ones still go to the pool, so one batch never holds the event loop long.
 */
export const SYNC_DECOMPRESS_BYTES = 256 * 1024

/** LZ4 frame decompression for one record batch: inline when small, in the thread pool when large. */
export const decompressBatch = async (buffer: Buffer): Promise<Buffer> =>
  (buffer.length <= SYNC_DECOMPRESS_BYTES ? decompressFrameSync(buffer) : decompressFrame(buffer))

CompressionCodecs[CompressionTypes.LZ4] = () => ({
  compress: async (encoder: { buffer: Buffer }) => compressFrame(encoder.buffer),
  decompress: decompressBatch,
})

/** The KafkaJS compression type of a configured codec (core/config.ts: kafkaCompression). */
export const compressionOf = (codec: 'lz4' | 'none') => (codec === 'lz4' ? CompressionTypes.LZ4 : CompressionTypes.None)
