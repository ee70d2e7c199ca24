/** The pure parts of the audio role: tags from a record, the MP3 path, the retry schedule, the podcast XML. */
import t from 'tap'
import { XMLParser } from 'fast-xml-parser'
import { audioTags, outputFingerprint, type ArgumentFacts } from '../../../domain/audio/tags.js'
import { mp3PathFor, isServableMp3Path, isOwnMp3Path, fileSlug, MP3_PATH_MAX } from '../../../domain/audio/paths.js'
import { audioRetryDelay, AUDIO_RETRY_DELAYS_MS } from '../../../domain/audio/retry.js'
import { podcastXml, itunesDuration } from '../../../domain/audio/podcast.js'
import { sealSvg } from '../../../domain/audio/art-svg.js'

const facts: ArgumentFacts = {
  id: 42, caseName: 'Smith & Sons v. Jones', courtName: 'Court of Appeals for the Ninth Circuit', courtId: 'ca9',
  dateArgued: '2024-03-05', docketNumber: '23-1234', recordUrl: 'https://example.org/audio/42/case/',
}

t.test('tags: the record\'s values, not the original\'s', async (t) => {
  t.same(audioTags(facts), {
    title: 'Smith & Sons v. Jones', artist: 'Court of Appeals for the Ninth Circuit', album: 'Court of Appeals for the Ninth Circuit oral arguments',
    year: '2024', date: '0503', comment: 'Argued 2024-03-05. Docket number: 23-1234. https://example.org/audio/42/case/',
  })
  t.equal(audioTags({ ...facts, caseName: '' }).title, 'Oral argument 42', 'a record without a case name still has a title')
  t.notOk(audioTags({ ...facts, docketNumber: '' }).comment.includes('Docket'), 'no empty docket number')
})

t.test('fingerprint: a new original or new tags make a new file', async (t) => {
  const tags = audioTags(facts)
  t.equal(outputFingerprint('a', tags), outputFingerprint('a', audioTags(facts)))
  t.not(outputFingerprint('a', tags), outputFingerprint('b', tags))
  t.not(outputFingerprint('a', tags), outputFingerprint('a', audioTags({ ...facts, caseName: 'Smith v. Jones' })))
})

t.test('MP3 path: the day argued, the case name and the id, or the record\'s own path it names', async (t) => {
  t.equal(mp3PathFor({ id: 42, case_name: 'Smith & Sons v. Jones' }, '2024-03-05'), 'mp3/2024/03/05/smith_sons_v._jones_42.mp3')
  const own = 'mp3/2014/06/09/ander_v._leo_1.mp3'
  t.equal(mp3PathFor({ id: 1, case_name: 'Renamed', local_path_mp3: own }, '2024-03-05'), own, 'the path the role gave this record is kept (stable on reprocessing)')
  t.equal(mp3PathFor({ id: 1, case_name: 'x' }, '2024-03-05'), mp3PathFor({ id: 1, case_name: 'x', local_path_mp3: mp3PathFor({ id: 1, case_name: 'x' }, '2024-03-05') }, '2024-03-05'), 'the role\'s published version maps to the same path')
  t.equal(mp3PathFor({ id: 2, case_name: 'x', local_path_mp3: own }, '2024-03-05'), 'mp3/2024/03/05/x_2.mp3', 'another record\'s path is not taken')
  t.equal(mp3PathFor({ id: 12, case_name: 'x', local_path_mp3: 'mp3/2024/03/05/x_112.mp3' }, '2024-03-05'), 'mp3/2024/03/05/x_12.mp3', 'nor one whose id only ends in this one')
  t.notOk(isOwnMp3Path('mp3/2024/03/05/x_112.mp3', 12))
  t.ok(isOwnMp3Path('mp3/2024/03/05/x_112.mp3', 112))
  t.equal(mp3PathFor({ id: 1, case_name: 'x', local_path_mp3: '../../etc/passwd' }, '2024-03-05'), 'mp3/2024/03/05/x_1.mp3', 'an unsafe path is replaced')
  const long = mp3PathFor({ id: 123456789, case_name: 'Ünïcode Corp. '.repeat(20) }, '2024-03-05')
  t.ok(long.length <= MP3_PATH_MAX && isServableMp3Path(long), `${long} fits the field and is servable`)
  t.equal(fileSlug('  ...  '), 'argument')
  for (const bad of ['mp3/2024/03/05/../x.mp3', '/mp3/2024/03/05/x.mp3', 'originals/a.mp3', 'mp3/2024/03/05/.hidden.mp3', 'mp3/2024/03/05/x.wav']) t.notOk(isServableMp3Path(bad), bad)
})

t.test('MP3 path: two records of one name (the reference\'s shared path) get two files', async (t) => {
  const shared = 'mp3/2014/06/09/ander_v._leo.mp3'
  const a = mp3PathFor({ id: 7, case_name: 'Ander v. Leo', local_path_mp3: shared }, '2014-06-09')
  const b = mp3PathFor({ id: 8, case_name: 'Ander v. Leo', local_path_mp3: shared }, '2014-06-09')
  t.not(a, b)
  t.same([a, b], ['mp3/2014/06/09/ander_v._leo_7.mp3', 'mp3/2014/06/09/ander_v._leo_8.mp3'])
  t.ok(isServableMp3Path(a) && isServableMp3Path(b))
})

t.test('retry schedule: bounded', async (t) => {
  t.same(AUDIO_RETRY_DELAYS_MS.map((_, i) => audioRetryDelay(i + 1)), AUDIO_RETRY_DELAYS_MS)
  t.equal(audioRetryDelay(AUDIO_RETRY_DELAYS_MS.length + 1), null, 'no attempt after the last delay')
  t.equal(audioRetryDelay(1, []), null, 'no schedule, no retry')
})

t.test('podcast XML: RSS 2.0 with iTunes tags, values escaped', async (t) => {
  const xml = podcastXml({
    title: 'Ninth Circuit <oral> arguments & more', selfUrl: 'https://x.org/podcasts/ca9/', link: 'https://x.org/', description: 'd', author: 'LDS',
    imageUrl: 'https://x.org/storage/art/ca9.png',
    episodes: [{ guid: 'audio-1', title: 'A & B v. <C>', link: 'https://x.org/audio/1/case/', description: 'x', published: new Date('2024-03-05T12:00:00Z'), enclosure: { url: 'https://x.org/storage/mp3/a.mp3?x=1&y=2', bytes: 1234 }, durationSeconds: 3725 }],
  })
  const doc = new XMLParser({ ignoreAttributes: false }).parse(xml)
  t.equal(doc.rss['@_version'], '2.0')
  t.equal(doc.rss['@_xmlns:itunes'], 'http://www.itunes.com/dtds/podcast-1.0.dtd')
  const ch = doc.rss.channel
  t.equal(ch.title, 'Ninth Circuit <oral> arguments & more')
  t.equal(ch['itunes:image']['@_href'], 'https://x.org/storage/art/ca9.png')
  t.equal(ch.item.title, 'A & B v. <C>')
  t.same(ch.item.enclosure, { '@_url': 'https://x.org/storage/mp3/a.mp3?x=1&y=2', '@_length': '1234', '@_type': 'audio/mpeg' })
  t.equal(ch.item['itunes:duration'], '1:02:05')
  t.equal(itunesDuration(59.6), '0:01:00')
})

t.test('generated seal: the court\'s name, escaped, on a ring', async (t) => {
  const svg = sealSvg('Court of <Appeals> & Co', 'ca9')
  t.match(svg, /<textPath href="#ring">Court of &#60;Appeals&#62; &#38; Co/)
  t.match(svg, />CA9</)
})
