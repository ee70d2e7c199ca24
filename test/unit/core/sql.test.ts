import t from 'tap'
import { sql, ident, join, compile, param, qualified } from '../../../core/sql.js'

t.test('values become typed placeholders, never SQL text', async (t) => {
  const hostile = "x'; DROP TABLE courts; --"
  const q = compile(sql`SELECT * FROM t WHERE name = ${hostile} AND id = ${5} AND score > ${1.5} AND ok = ${true}`)
  t.equal(q.query, 'SELECT * FROM t WHERE name = {p1:String} AND id = {p2:Int64} AND score > {p3:Float64} AND ok = {p4:Bool}')
  t.same(q.query_params, { p1: hostile, p2: 5, p3: 1.5, p4: true })
  t.notMatch(q.query, /DROP/)
})

t.test('arrays, explicit types and nested fragments are numbered in order', async (t) => {
  const inner = sql`x IN ${[1, 2, 3]}`
  const q = compile(sql`SELECT 1 WHERE ${join([inner, sql`y = ${param('2024-01-01', 'Date32')}`], ' AND ')} LIMIT ${10}`)
  t.equal(q.query, 'SELECT 1 WHERE x IN {p1:Array(Int64)} AND y = {p2:Date32} LIMIT {p3:Int64}')
  t.same(q.query_params, { p1: [1, 2, 3], p2: '2024-01-01', p3: 10 })
})

t.test('identifiers are quoted and refuse anything but plain names', async (t) => {
  t.equal(compile(sql`SELECT ${ident('case_name')} FROM ${qualified('lds', 'dockets')}`).query, 'SELECT `case_name` FROM `lds`.`dockets`')
  for (const bad of ['a b', 'x`; DROP', '1abc', '', 'a.b', 'name--']) t.throws(() => ident(bad), /invalid SQL identifier/, bad)
  t.throws(() => param(1, 'Int64); DROP'), /invalid ClickHouse type/)
})
