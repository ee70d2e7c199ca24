import t from 'tap'
import { catalogue } from '../../../schemas/catalogue/index.js'
import { compileFilters } from '../../../api/engine/filters.js'
import { compile, join } from '../../../core/sql.js'

const run = (resource: string, params: Record<string, string | string[]>) => {
  const f = compileFilters(catalogue, catalogue.get(resource), 'db')
  const res = f(new Map(Object.entries(params).map(([k, v]) => [k, Array.isArray(v) ? v : [v]])))
  return { ...res, sql: res.where.length ? compile(join(res.where, ' AND ')) : undefined }
}

t.test('direct lookups bind typed values', async (t) => {
  const r = run('dockets', { id__gt: '5', date_filed__range: '2020-01-01,2020-12-31', nature_of_suit__istartswith: 'Civil' })
  t.same(r.errors, {}); t.same(r.unknown, [])
  t.equal(r.sql!.query, '`id` > {p1:Int64} AND `date_filed` BETWEEN {p2:String} AND {p3:String} AND startsWith(lower(`nature_of_suit`), lower({p4:String}))')
  t.same(Object.values(r.sql!.query_params), [5, '2020-01-01', '2020-12-31', 'Civil'])
})

t.test('a foreign key filter compares the column; a related field joins through a subquery', async (t) => {
  t.equal(run('dockets', { court: 'scotus' }).sql!.query, '`court_id` = {p1:String}')
  const r = run('opinions', { cluster__docket__court__jurisdiction: 'F' })
  t.equal(r.sql!.query, '`cluster_id` IN (SELECT `id` FROM `db`.`clusters` FINAL WHERE `docket_id` IN (SELECT `id` FROM `db`.`dockets` FINAL WHERE `court_id` IN (SELECT `id` FROM `db`.`courts` FINAL WHERE `jurisdiction` IN ({p1:String}))))')
})

t.test('negation with !, multiple choice values, reverse relations', async (t) => {
  t.equal(run('courts', { 'jurisdiction!': 'F,FD' }).sql!.query, 'NOT (`jurisdiction` IN ({p1:String}, {p2:String}))')
  t.equal(run('courts', { dockets__id: '7' }).sql!.query, '`id` IN (SELECT `court_id` FROM `db`.`dockets` FINAL WHERE `id` = {p1:Int64})')
  t.equal(run('people', { opinions_written__id: '3' }).sql!.query, '`id` IN (SELECT `author_id` FROM `db`.`opinions` FINAL WHERE `id` = {p1:Int64})')
})

t.test('bad values are field-keyed errors; unknown names are listed sorted', async (t) => {
  const r = run('dockets', { date_filed__gte: 'yesterday', id: 'abc', zzz: '1', court__nope: 'x', page: '2', fields: 'id', empty: '' })
  t.same(r.errors, { date_filed__gte: ['Enter a valid date.'], id: ['Enter a number.'] })
  t.same(r.unknown, ['court__nope', 'zzz'], 'framework params and empty values are not unknown')
})

t.test('lookups a field does not declare are unknown, and related chains stop at depth 4', async (t) => {
  t.same(run('courts', { id__gt: 'a' }).unknown, ['id__gt'], 'courts id allows only exact')
  t.same(run('dockets', { docket_number__startswith: '1' }).unknown, ['docket_number__startswith'])
  t.same(run('opinions', { cluster__docket__court__dockets__clusters__id: '1' }).unknown, ['cluster__docket__court__dockets__clusters__id'])
})

t.test('hostile values never reach the SQL text', async (t) => {
  const evil = "') OR 1=1; DROP TABLE dockets; --"
  const r = run('dockets', { docket_number: evil, court: evil })
  t.notMatch(r.sql!.query, /DROP|OR 1=1/)
  t.ok(Object.values(r.sql!.query_params).includes(evil))
})
