/**
 * What people made of the corpus, as far as anyone may read it: the service's own search tags,
 * the published tags of a sample user and the dockets they are on, and that user's published
 * maps of how Supreme Court decisions cite each other. Alerts, prayers, fetches and uploads
 * belong to the users who make them through the API, so the sample has none.
 */
import type { SampleContext } from './context.js'
import { SAMPLE_USER_ID, slugify } from './context.js'
import { isoDay } from './dates.js'
import type { SampleRecord } from './records.js'

const SEARCH_TAGS = ['recap-import', 'idb-match', 'pacer-rss', 'mdl', 'high-profile', 'sealed-in-part', 'class-action', 'pro-se', 'appellate-acms', 'bankruptcy-claims'] as const

/** The service's tags (resource `tag`); returns their ids. */
export function* searchTags(ctx: SampleContext, day: number): Generator<SampleRecord, number[]> {
  const ids: number[] = []
  for (const name of SEARCH_TAGS) {
    const id = ctx.next('tag')
    const [created, modified] = ctx.stamp(day + ids.length * 97)
    ids.push(id)
    yield { resource: 'tag', record: { id, date_created: created, date_modified: modified, name } }
  }
  return ids
}

export interface UserTag { id: number; published: boolean; fits: (kind: DocketKind) => boolean; used: number }
export interface DocketKind { family: string; category: string; criminal: boolean }

const USER_TAGS: readonly { name: string; title: string; description: string; published: boolean; fits: (k: DocketKind) => boolean }[] = [
  { name: 'supreme-court-watch', title: 'Supreme Court watch', description: 'Cases before the Supreme Court and the decisions that led to them.', published: true, fits: (k) => k.family === 'scotus' },
  { name: 'fourth-amendment', title: 'Fourth Amendment: stops and searches', description: 'Suppression motions and the appeals that follow them.', published: true, fits: (k) => k.criminal },
  { name: 'chapter-11-to-follow', title: 'Bankruptcies to follow', description: 'Business bankruptcies with claims registers worth reading.', published: true, fits: (k) => k.family === 'bankruptcy' },
  { name: 'title-vii', title: 'Employment discrimination', description: 'Title VII cases in the district courts and on appeal.', published: true, fits: (k) => k.category === 'employment' },
  { name: 'reading-list', title: 'Reading list', description: 'Not shared.', published: false, fits: () => true },
]

/** The sample user's tags (resource `tags`). */
export function* userTags(ctx: SampleContext, day: number): Generator<SampleRecord, UserTag[]> {
  const out: UserTag[] = []
  for (const t of USER_TAGS) {
    const id = ctx.next('tags')
    const [created, modified] = ctx.stamp(day + out.length * 41)
    out.push({ id, published: t.published, fits: t.fits, used: 0 })
    yield { resource: 'tags', record: {
      id, user_id: SAMPLE_USER_ID, date_created: created, date_modified: modified, name: t.name, title: t.title, description: t.description,
      view_count: t.published ? ctx.rng.int(5, 4000) : 0, published: t.published,
    } }
  }
  return out
}

/** Puts fitting tags of the sample user on a docket: always while a tag is unused, else now and then. */
export function* docketTags(ctx: SampleContext, tags: readonly UserTag[], docketId: number, kind: DocketKind): Generator<SampleRecord> {
  for (const t of tags) {
    if (!t.fits(kind) || !(t.used === 0 || ctx.rng.chance(t.published ? 0.02 : 0.002))) continue
    t.used++
    yield { resource: 'docket-tags', record: { id: ctx.next('docket-tags'), user_id: SAMPLE_USER_ID, published: t.published, docket_id: docketId, tag_id: t.id } }
  }
}

/** A Supreme Court decision on a map. */
export interface MapCase { cluster: number; name: string; day: number }

/** A published map from the oldest to the newest of `cases` (in date order), with one or two versions of its data. */
export function* visualization(ctx: SampleContext, cases: readonly MapCase[], day: number): Generator<SampleRecord> {
  const { rng } = ctx
  const start = cases[0], end = cases[cases.length - 1]
  const title = `${start.name} to ${end.name}`.slice(0, 200)
  const [created, modified] = ctx.stamp(day)
  const id = ctx.next('visualizations')
  const generation = Math.round(rng.next() * 8000) / 1000 + 0.2
  yield { resource: 'visualizations', record: {
    id, user_id: SAMPLE_USER_ID, title, cluster_start_id: start.cluster, cluster_end_id: end.cluster, clusters_ids: cases.map((c) => c.cluster),
    date_created: created, date_modified: modified, date_published: created, date_deleted: null, slug: slugify(title), notes: rng.chance(0.5) ? 'How the Court got from one to the other.' : '',
    view_count: rng.int(3, 2500), published: true, deleted: false, generation_time: generation,
  } }
  for (let v = rng.chance(0.3) ? 2 : 1; v > 0; v--) {
    const data = {
      meta: { donate: 'Support the service by donating.', version: '1.2', generation_time: generation },
      opinion_clusters: cases.map((c, k) => ({
        id: c.cluster, absolute_url: `/opinion/${c.cluster}/${slugify(c.name)}/`, case_name: c.name, date_filed: isoDay(c.day),
        sub_opinions: [{ type: '020lead', opinions_cited: k === cases.length - 1 ? cases.slice(0, k).map((x) => x.cluster) : [] }],
      })),
    }
    yield { resource: 'visualization-json', record: { id: ctx.next('visualization-json'), user_id: SAMPLE_USER_ID, published: true, date_created: created, date_modified: modified, json_data: JSON.stringify(data), map_id: id } }
  }
}
