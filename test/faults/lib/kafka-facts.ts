/** Facts read from Kafka: end offsets, a consumer group's lag and who holds which partitions. */
import { AssignerProtocol, type Admin } from 'kafkajs'
import { waitFor } from './wait.js'

/** Offsets of a topic; retried while a freshly created topic has no leader yet. */
const topicOffsets = (admin: Admin, topic: string) => waitFor(() => admin.fetchTopicOffsets(topic), `the offsets of ${topic}`, 120_000, 200)

/** Sum of the end offsets of each topic. */
export async function endOffsets(admin: Admin, topics: readonly string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>()
  for (const topic of topics) {
    const parts = await topicOffsets(admin, topic)
    out.set(topic, parts.reduce((a, p) => a + Number(p.high), 0))
  }
  return out
}

/** Messages of `topics` the group has not committed yet (a partition with no commit counts from its start). */
export async function groupLag(admin: Admin, groupId: string, topics: readonly string[]): Promise<number> {
  const committed = await admin.fetchOffsets({ groupId, topics: [...topics] })
  let lag = 0
  for (const { topic, partitions } of committed) {
    const ends = await topicOffsets(admin, topic)
    for (const p of partitions) {
      const end = ends.find((e) => e.partition === p.partition)
      if (!end) continue
      const from = Number(p.offset) >= 0 ? Number(p.offset) : Number(end.low)
      lag += Math.max(0, Number(end.high) - from)
    }
  }
  return lag
}

export interface Member { memberId: string; clientHost: string; partitions: number }

/** The group's members and how many partitions each holds. */
export async function groupMembers(admin: Admin, groupId: string): Promise<{ state: string; members: Member[] }> {
  const { groups } = await admin.describeGroups([groupId])
  const g = groups[0]
  if (!g) return { state: 'Unknown', members: [] }
  return {
    state: g.state,
    members: g.members.map((m) => {
      let partitions = 0
      try {
        const a = AssignerProtocol.MemberAssignment.decode(m.memberAssignment)
        partitions = a ? Object.values(a.assignment).reduce((s, ps) => s + ps.length, 0) : 0
      } catch { /* an empty assignment while rebalancing */ }
      return { memberId: m.memberId, clientHost: m.clientHost, partitions }
    }),
  }
}
