/**
 * A co-partitioning assignor: partition p of every subscribed topic goes to the same group member
 * (members sorted by id, p mod their count). A processor that reads several topics keyed by the
 * same entity id (opinions and the commands about them) then sees every event of one entity in one
 * instance, which KafkaJS's round-robin assignor does not promise.
 */
import { AssignerProtocol, type PartitionAssigner } from 'kafkajs'

export const CoPartitionedAssigner: PartitionAssigner = ({ cluster }) => ({
  name: 'LdsCoPartitionedAssigner',
  version: 1,
  async assign({ members, topics }) {
    const ids = members.map((m) => m.memberId).sort()
    const assignment = new Map<string, Record<string, number[]>>(ids.map((id) => [id, {}]))
    for (const topic of topics) {
      for (const { partitionId } of cluster.findTopicPartitionMetadata(topic)) {
        const member = assignment.get(ids[partitionId % ids.length])!
        ;(member[topic] ??= []).push(partitionId)
      }
    }
    return ids.map((memberId) => ({
      memberId,
      memberAssignment: AssignerProtocol.MemberAssignment.encode({ version: 1, assignment: assignment.get(memberId)!, userData: Buffer.alloc(0) }),
    }))
  },
  protocol({ topics }) {
    return { name: 'LdsCoPartitionedAssigner', metadata: AssignerProtocol.MemberMetadata.encode({ version: 1, topics, userData: Buffer.alloc(0) }) }
  },
})
