/**
 * The audio role alone in a process of its own, for test/integration/audio-restart.test.ts (which
 * kills it): configured from the environment like any process, with `AUDIO_CHILD_FFMPEG` naming the
 * ffmpeg to run (a wrapper that stalls). Prints "ready" once it reads its topic.
 *   node --import tsx test/helpers/audio-child.ts
 */
import { loadConfig } from '../../core/config.js'
import { createLogger } from '../../core/logger.js'
import { createRuntime } from '../../bin/runtime.js'
import { openPublisher } from '../../core/events/publisher.js'
import { ensureFfmpeg } from '../../infra/debian.js'
import { startAudioProcessor } from '../../streams/audio/processor.js'

const cfg = loadConfig()
const rt = createRuntime(cfg, createLogger(cfg))
const publisher = await openPublisher(rt)
const found = await ensureFfmpeg()
const tools = { ffmpeg: process.env.AUDIO_CHILD_FFMPEG || found.ffmpeg, ffprobe: found.ffprobe }
const audio = startAudioProcessor({ ...rt, publisher, tools, retryDelaysMs: [], consumerTimeouts: { sessionTimeout: 6_000, heartbeatInterval: 1_000 } })
await audio.started
process.stdout.write('ready\n')
setInterval(() => {}, 60_000)
