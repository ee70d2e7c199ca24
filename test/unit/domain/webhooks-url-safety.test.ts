import t from 'tap'
import { checkWebhookUrl, isForbiddenAddress, resolveAndCheck, type Lookup } from '../../../domain/webhooks/index.js'

t.test('forbidden addresses', async (t) => {
  const forbidden = [
    '127.0.0.1', '127.255.255.254', '10.0.0.1', '10.255.255.255', '172.16.0.1', '172.31.255.255', '192.168.1.1',
    '169.254.169.254', '169.254.0.1', '100.64.0.1', '100.127.255.255', '0.0.0.0', '0.1.2.3',
    '224.0.0.1', '239.255.255.250', '255.255.255.255', '240.0.0.1',
    '::1', '::', 'fc00::1', 'fd12:3456:789a::1', 'fe80::1', 'fe80::1%eth0', 'febf::1', 'ff02::1',
    '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.1.2.3', '::ffff:169.254.169.254', '::ffff:a9fe:a9fe', '[::1]',
    '64:ff9b::10.0.0.1', '::127.0.0.1',
    'not-an-ip', '', '1.2.3', '999.1.1.1',
  ]
  for (const ip of forbidden) t.ok(isForbiddenAddress(ip), ip)
  const allowed = [
    '8.8.8.8', '1.1.1.1', '172.15.255.255', '172.32.0.1', '100.63.255.255', '100.128.0.1', '169.253.1.1', '192.167.1.1',
    '11.0.0.1', '223.255.255.255', '2001:4860:4860::8888', '2606:4700::1111', '::ffff:8.8.8.8', '64:ff9b::8.8.8.8', 'fbff::1',
  ]
  for (const ip of allowed) t.notOk(isForbiddenAddress(ip), ip)
})

t.test('webhook URLs: https only, no credentials, at most 2000 characters', async (t) => {
  t.ok(checkWebhookUrl('https://example.com/hooks/abc?x=1').ok)
  const refuse = (url: string, re: RegExp, opts = {}) => {
    const r = checkWebhookUrl(url, opts)
    t.notOk(r.ok, url)
    if (!r.ok) t.match(r.error, re, url)
  }
  refuse('http://example.com/', /HTTPS/)
  refuse('ftp://example.com/', /HTTPS/)
  refuse('not a url', /valid URL/)
  refuse('https://user:pw@example.com/', /credentials/)
  refuse('https://user@example.com/', /credentials/)
  refuse('https://example.com/' + 'a'.repeat(2000), /at most 2000/)
  refuse('https://127.0.0.1/', /not allowed/)
  refuse('https://[::1]:8443/', /not allowed/)
  refuse('https://[::ffff:169.254.169.254]/', /not allowed/)
  refuse('https://0x7f.0.0.1/', /not allowed/) // the URL parser normalises to 127.0.0.1
  refuse('https://2130706433/', /not allowed/)
  refuse('https://localhost/', /not allowed/)
  refuse('https://api.localhost/', /not allowed/)
  t.equal(('https://example.com/' + 'a'.repeat(1980)).length, 2000)
  t.ok(checkWebhookUrl('https://example.com/' + 'a'.repeat(1980)).ok, 'exactly 2000 is fine')

  t.ok(checkWebhookUrl('http://127.0.0.1:4000/hook', { allowInsecure: true }).ok, 'allowInsecure lifts scheme and address rules')
  refuse('http://u:p@127.0.0.1/', /credentials/, { allowInsecure: true })
})

t.test('resolveAndCheck refuses if ANY resolved address is forbidden', async (t) => {
  const table: Record<string, string[]> = {
    'good.example': ['93.184.216.34', '2606:2800:220:1::1'],
    'mixed.example': ['93.184.216.34', '10.0.0.5'],
    'meta.example': ['169.254.169.254'],
    'mapped.example': ['::ffff:127.0.0.1'],
    'empty.example': [],
  }
  const asked: string[] = []
  const lookup: Lookup = async (h) => {
    asked.push(h)
    if (!(h in table)) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${h}`), { code: 'ENOTFOUND' })
    return table[h].map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
  }
  t.same(await resolveAndCheck('good.example', lookup), { ok: true, addresses: ['93.184.216.34', '2606:2800:220:1::1'] })
  const mixed = await resolveAndCheck('mixed.example', lookup)
  t.notOk(mixed.ok)
  if (!mixed.ok) t.match(mixed.error, /forbidden address \(10\.0\.0\.5\)/)
  t.notOk((await resolveAndCheck('meta.example', lookup)).ok)
  t.notOk((await resolveAndCheck('mapped.example', lookup)).ok)
  t.notOk((await resolveAndCheck('empty.example', lookup)).ok)
  const missing = await resolveAndCheck('nope.example', lookup)
  t.notOk(missing.ok)
  if (!missing.ok) t.match(missing.error, /ENOTFOUND/)
  t.same(await resolveAndCheck('mixed.example', lookup, { allowInsecure: true }), { ok: true, addresses: ['93.184.216.34', '10.0.0.5'] })

  asked.length = 0
  t.notOk((await resolveAndCheck('[::1]', lookup)).ok, 'literal addresses are checked without a lookup')
  t.same(await resolveAndCheck('8.8.8.8', lookup), { ok: true, addresses: ['8.8.8.8'] })
  t.same(asked, [])
})
