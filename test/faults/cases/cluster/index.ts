/** The cases `npm run faults -- --cluster` runs, on the local cluster (infra/cluster/), in order. */
import type { FaultCase } from '../../lib/case.js'
import { clusterBrokerSigkill } from './09-broker-sigkill.js'
import { clusterRollingRestart } from './10-rolling-restart.js'
import { clusterClickHouseSigkill } from './11-clickhouse-node-sigkill.js'
import { clusterApiSigkill } from './12-api-process-sigkill.js'

export const CLUSTER_CASES: readonly FaultCase[] = [clusterBrokerSigkill, clusterRollingRestart, clusterClickHouseSigkill, clusterApiSigkill]
