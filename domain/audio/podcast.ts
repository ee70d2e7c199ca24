/**
 * A podcast: RSS 2.0 with the iTunes tags podcast apps read, built with xmlbuilder2 (which escapes
 * every value) from plain data, so a case name with `&` or `<` cannot break the feed.
 */
import { create } from 'xmlbuilder2'

export interface PodcastEpisode {
  guid: string
  title: string
  /** The record's page. */
  link: string
  description: string
  published: Date
  enclosure: { url: string; bytes: number }
  durationSeconds: number | null
}

export interface PodcastChannel {
  title: string
  /** The feed's own URL (atom:link rel=self). */
  selfUrl: string
  link: string
  description: string
  author: string
  imageUrl?: string
  episodes: readonly PodcastEpisode[]
}

/** Seconds as iTunes wants them: H:MM:SS. */
export function itunesDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds))
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  return `${h}:${String(m).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`
}

export function podcastXml(c: PodcastChannel): string {
  const doc = create({ version: '1.0', encoding: 'UTF-8' })
  const channel = doc.ele('rss', {
    version: '2.0', 'xmlns:itunes': 'http://www.itunes.com/dtds/podcast-1.0.dtd', 'xmlns:atom': 'http://www.w3.org/2005/Atom',
  }).ele('channel')
  channel.ele('title').txt(c.title)
  channel.ele('link').txt(c.link)
  channel.ele('atom:link', { href: c.selfUrl, rel: 'self', type: 'application/rss+xml' })
  channel.ele('description').txt(c.description)
  channel.ele('language').txt('en-us')
  channel.ele('itunes:author').txt(c.author)
  channel.ele('itunes:summary').txt(c.description)
  channel.ele('itunes:explicit').txt('false')
  channel.ele('itunes:category', { text: 'Government' })
  if (c.imageUrl) {
    channel.ele('itunes:image', { href: c.imageUrl })
    const image = channel.ele('image')
    image.ele('url').txt(c.imageUrl)
    image.ele('title').txt(c.title)
    image.ele('link').txt(c.link)
  }
  const newest = c.episodes[0]?.published
  if (newest) channel.ele('lastBuildDate').txt(newest.toUTCString())
  for (const e of c.episodes) {
    const item = channel.ele('item')
    item.ele('title').txt(e.title)
    item.ele('link').txt(e.link)
    item.ele('guid', { isPermaLink: 'false' }).txt(e.guid)
    item.ele('description').txt(e.description)
    item.ele('pubDate').txt(e.published.toUTCString())
    item.ele('enclosure', { url: e.enclosure.url, length: String(e.enclosure.bytes), type: 'audio/mpeg' })
    item.ele('itunes:author').txt(c.author)
    item.ele('itunes:summary').txt(e.description)
    if (e.durationSeconds !== null) item.ele('itunes:duration').txt(itunesDuration(e.durationSeconds))
  }
  return doc.end({ prettyPrint: true })
}
