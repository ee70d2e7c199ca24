import { defineResource, field, filter } from '../define.js'
import { REDIRECTION_REASON } from './choices.js'
import { INT32 } from './limits.js'

/**
 * Old cluster ids and where they went: listed under `clusters.cluster_redirections` and used to
 * answer a request for a removed cluster (301 to the new one, 410 when sealed). Internal.
 */
export const clusterRedirections = defineResource({
  name: 'cluster-redirections', label: 'Cluster Redirection', model: 'ClusterRedirection', plural: 'Cluster Redirections', table: 'cluster_redirections', keyKind: 'int', api: false, cursorOrderings: ['id'],
  description: 'A cluster id that no longer exists, the cluster that replaced it (none when sealed) and why.',
  fields: {
    id: field.int({ hidden: true }),
    cluster: field.fk('clusters', { nullable: true, hidden: true, help: 'The cluster that replaced the old one; none when it was sealed.' }),
    date_created: field.created(),
    deleted_cluster_id: field.int({ ...INT32, required: true }),
    reason: field.int({ choices: REDIRECTION_REASON, required: true }),
  },
  filters: { deleted_cluster_id: filter.exact, reason: filter.exact },
  orderings: ['id'],
})
