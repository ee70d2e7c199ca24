import t from 'tap'
import { Writable } from 'node:stream'
import { pino } from 'pino'
import { createKafka } from '../../../core/kafka.js'

/** KafkaJS log lines as our logger writes them: [level, msg]. */
function capture() {
  const lines: [number, string][] = []
  const sink = new Writable({ write(chunk, _enc, cb) { const e = JSON.parse(String(chunk)); lines.push([e.level, e.msg]); cb() } })
  const kafka = createKafka({ kafkaBrokers: ['127.0.0.1:1'] }, pino({ level: 'info' }, sink))
  return { log: kafka.logger(), lines }
}

t.test('a broker answer KafkaJS retries by itself is never an error line', async (t) => {
  const { log, lines } = capture()
  log.error('Failed to send messages: This server is not the leader for that topic-partition', { retryCount: 0, retryTime: 202 })
  log.error('Crash: KafkaJSProtocolError: The coordinator is loading and hence can\'t process requests', { groupId: 'g1', retryCount: 0 })
  log.error('Restarting the consumer in 200ms', { groupId: 'g1', retryCount: 0, retryTime: 200 })
  log.error('Response GroupCoordinator', { error: 'The coordinator is not available' })
  t.same(lines, [], 'all four at debug, below the info level')
})

t.test('real failures stay errors, and so does the restart after one', async (t) => {
  const { log, lines } = capture()
  log.error('Crash: KafkaJSNonRetriableError: Topic authorization failed', { groupId: 'g2' })
  log.error('Restarting the consumer in 200ms', { groupId: 'g2' })
  log.error('Crash: KafkaJSProtocolError: The coordinator is loading', { groupId: 'g3' })
  log.error('Restarting the consumer in 300ms', { groupId: 'g3' })
  log.error('Restarting the consumer in 400ms', { groupId: 'g3' }) // a second restart without a crash line before it
  t.same(lines, [[50, 'Crash: KafkaJSNonRetriableError: Topic authorization failed'], [50, 'Restarting the consumer in 200ms'], [50, 'Restarting the consumer in 400ms']])
})
