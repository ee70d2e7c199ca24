import t from 'tap'
import { CodeTable, LinkSet, RACE_CODES } from '../../../connectors/bulk/links.js'
import { bulkTableNamed } from '../../../connectors/bulk/tables.js'

const panel = bulkTableNamed('search_opinioncluster_panel')!
const npj = bulkTableNamed('search_opinioncluster_non_participating_judges')!
const personRace = bulkTableNamed('people_db_person_race')!

t.test('link rows become the parent\'s arrays, in file order, once each; a parent the snapshot does not name has none', async (t) => {
  const links = new LinkSet()
  links.declare(panel)
  links.declare(npj)
  for (const [cluster, person] of [[1, 10], [1, 11], [2, 10], [1, 10]]) await links.add(panel, { id: 0, opinioncluster_id: cluster, person_id: person })
  await links.add(npj, { id: 0, opinioncluster_id: 3, person_id: 12 })
  t.same(links.columnsOf('clusters').sort(), ['non_participating_judges_ids', 'panel_ids'])
  t.same(links.take('clusters', 1), { panel_ids: [10, 11], non_participating_judges_ids: [] })
  t.same(links.take('clusters', 9), { panel_ids: [], non_participating_judges_ids: [] }, 'a cluster without links gets empty arrays')
  t.same([...links.leftovers('clusters')], [[2, { panel_ids: [10], non_participating_judges_ids: [] }], [3, { panel_ids: [], non_participating_judges_ids: [12] }]],
    'parents no row file published are left over, with every link column of the run')
  t.same([...links.leftovers('clusters')], [], 'each parent once')
  t.same(links.columnsOf('opinions'), [], 'no link file for opinions in this run: their joined_by is kept as it is')
})

t.test('race links translate ids through the code table; older files wrote the code itself', async (t) => {
  const asked: number[] = []
  const codes = new CodeTable(RACE_CODES, async (id) => { asked.push(id); return id === 7 ? 'h' : undefined })
  codes.add(1, 'w')
  codes.add(2, 'b')
  const links = new LinkSet()
  t.equal(await links.add(personRace, { id: 1, person_id: 42, race_id: '2' }, codes), undefined)
  t.equal(await links.add(personRace, { id: 2, person_id: 42, race_id: 'w' }, codes), undefined)
  t.equal(await links.add(personRace, { id: 3, person_id: 43, race_id: '7' }, codes), undefined, 'an id the run did not read is asked of the service')
  t.match(await links.add(personRace, { id: 4, person_id: 43, race_id: '99' }, codes), /race_id: no code with id "99"/)
  t.same(asked, [7, 99])
  t.same(links.take('people', 42), { race: ['b', 'w'] })
  t.same(links.take('people', 43), { race: ['h'] })
})
