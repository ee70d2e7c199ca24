/** Every fault case, in the order they run. */
import type { FaultCase } from '../lib/case.js'
import { sinkSigkill } from './01-sink-sigkill.js'
import { networkSigkill } from './02-network-sigkill.js'
import { brokerSigkill } from './03-broker-sigkill.js'
import { clickhouseOutage } from './04-clickhouse-outage.js'
import { registryDown } from './05-registry-down.js'
import { apiClickhouseDown } from './06-api-clickhouse-down.js'
import { twoSinks } from './07-two-sinks.js'
import { sigterm } from './08-sigterm.js'

export const CASES: readonly FaultCase[] = [sinkSigkill, networkSigkill, brokerSigkill, clickhouseOutage, registryDown, apiClickhouseDown, twoSinks, sigterm]
