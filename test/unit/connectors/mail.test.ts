import t from 'tap'
import {
  createMailer, MailSendError, webhookFailingMail, webhookDisabledMail, docketAlertMail, searchAlertMail, prayerGrantedMail, escapeHtml,
} from '../../../clients/mail.js'
import { startSmtpSink } from '../../helpers/smtp-sink.js'

const FROM = 'Legal Data Service <alerts@lds.test>'

t.test('sends a message that arrives parsed in the sink', async (t) => {
  const sink = await startSmtpSink()
  t.teardown(() => sink.close())
  const mailer = createMailer({ host: sink.host, port: sink.port, from: FROM })
  t.teardown(() => mailer.close())
  await mailer.verify()
  const sent = await mailer.send({ to: 'owner@example.org', subject: 'Hello — ünïcode', text: 'plain body', html: '<p>html <b>body</b></p>', headers: { 'X-LDS-Kind': 'test' } })
  t.same(sent.accepted, ['owner@example.org'])
  t.same(sent.rejected, [])
  const [msg] = await sink.waitFor(1)
  t.equal(msg.subject, 'Hello — ünïcode')
  t.equal(msg.from, 'alerts@lds.test')
  t.same(msg.to, ['owner@example.org'])
  t.same(msg.envelope, { from: 'alerts@lds.test', to: ['owner@example.org'] })
  t.equal(msg.text.trim(), 'plain body')
  t.match(msg.html, /<b>body<\/b>/)
  t.equal(msg.headers['x-lds-kind'], 'test')
})

t.test('authenticates when the server requires it', async (t) => {
  const sink = await startSmtpSink({ auth: { user: 'lds', pass: 's3cret' } })
  t.teardown(() => sink.close())
  const good = createMailer({ host: sink.host, port: sink.port, from: FROM, auth: { user: 'lds', pass: 's3cret' } })
  t.teardown(() => good.close())
  await good.send({ to: ['a@example.org', 'b@example.org'], subject: 's', text: 't' })
  const [msg] = await sink.waitFor(1)
  t.equal(msg.user, 'lds')
  t.same(msg.envelope.to, ['a@example.org', 'b@example.org'])

  const bad = createMailer({ host: sink.host, port: sink.port, from: FROM, auth: { user: 'lds', pass: 'wrong' } })
  t.teardown(() => bad.close())
  const err = await bad.send({ to: 'a@example.org', subject: 's', text: 't' }).catch((e: unknown) => e)
  t.type(err, MailSendError)
  t.equal((err as MailSendError).retriable, false, 'bad credentials will not get better')
})

t.test('classifies failures: 5xx permanent, 4xx and connection errors retriable', async (t) => {
  const perm = await startSmtpSink({ rejectWith: { code: 554, message: 'Message rejected' } })
  const temp = await startSmtpSink({ rejectWith: { code: 451, message: 'Try again later' } })
  t.teardown(() => perm.close())
  t.teardown(() => temp.close())
  const send = (port: number) => createMailer({ host: '127.0.0.1', port, from: FROM, timeoutMs: 2000 }).send({ to: 'x@example.org', subject: 's', text: 't' }).then(() => null, (e: MailSendError) => e)
  const p = await send(perm.port)
  t.same({ retriable: p?.retriable, code: p?.responseCode }, { retriable: false, code: 554 })
  const q = await send(temp.port)
  t.same({ retriable: q?.retriable, code: q?.responseCode }, { retriable: true, code: 451 })
  // a port nobody listens on: take one from a closed sink
  const gone = await startSmtpSink()
  await gone.close()
  const c = await send(gone.port)
  t.same({ retriable: c?.retriable, code: c?.responseCode }, { retriable: true, code: null })
  t.throws(() => createMailer({ host: '', port: 25, from: FROM }), /host and a port/)
  t.throws(() => createMailer({ host: 'h', port: 25, from: '' }), /from address/)
})

t.test('message builders', async (t) => {
  const webhook = { url: 'https://hooks.example.org/x', event_type: 1 as const, version: 2 }
  const failing = webhookFailingMail({ webhook, eventId: 'e-1', failureNumber: 2, nextAttemptAt: '2024-01-01T00:12:00+00:00', panelUrl: 'https://lds.test/profile/webhooks/' })
  t.equal(failing.subject, '[Action Needed]: Your Docket Alert webhook is failing.')
  t.match(failing.text, /Event e-1 has failed 2 times/)
  t.match(failing.text, /next attempt is scheduled for 2024-01-01T00:12:00\+00:00/)
  t.match(failing.html, /hooks\.example\.org/)

  const disabled = webhookDisabledMail({ webhook: { ...webhook, event_type: 5 }, eventId: 'e-1', failureNumber: 8, panelUrl: 'https://lds.test/p' })
  t.equal(disabled.subject, '[Action Needed]: Your Pray And Pay webhook is now disabled.')
  t.match(disabled.text, /last two days/)

  const docket = docketAlertMail({
    siteUrl: 'https://lds.test/',
    docket: { id: 5, case_name: 'A <script> v. B', docket_number: '1:24-cv-1', court: 'S.D.N.Y.', absolute_url: '/docket/5/a-v-b/' },
    entries: [
      { entry_number: 3, date_filed: '2024-05-01', description: 'MOTION to dismiss', archive_documents: [{ description: 'Main Document', absolute_url: '/docket/5/3/' }] },
      { entry_number: 4, date_filed: '2024-05-02', description: 'ORDER' },
    ],
    unsubscribeUrl: 'https://lds.test/alert/docket/toggle/?k=abc',
  })
  t.equal(docket.subject, '2 New Entries in A <script> v. B (1:24-cv-1)')
  t.match(docket.text, /#3 {2}2024-05-01 {2}MOTION to dismiss/)
  t.match(docket.text, /Main Document: https:\/\/lds\.test\/docket\/5\/3\//)
  t.notMatch(docket.html, /<script>/, 'html is escaped')
  t.match(docket.html, /A &lt;script&gt; v\. B/)

  const rt = searchAlertMail({
    siteUrl: 'https://lds.test', rate: 'rt',
    alerts: [{ alert: { name: 'Copyright', alert_type: 'o', query: 'q=copyright' }, results: [{ caseName: 'X v. Y', absolute_url: '/opinion/1/x-v-y/', snippet: 'about <strong>copyright</strong> & <em>more</em>', dateFiled: '2024-05-20' }] }],
  })
  t.equal(rt.subject, 'New hits for your alert: Copyright')
  t.match(rt.text, /X v\. Y \(2024-05-20\): https:\/\/lds\.test\/opinion\/1\/x-v-y\//)
  t.match(rt.text, /about copyright & more/)
  t.match(rt.html, /<strong>copyright<\/strong> &amp; &lt;em&gt;more/)

  const digest = searchAlertMail({
    siteUrl: 'https://lds.test', rate: 'wly',
    alerts: [
      { alert: { name: 'A', alert_type: 'r', query: 'q=a&type=r' }, results: [{ case_name: 'C v. D', absolute_url: '/docket/9/' }] },
      { alert: { name: 'B', alert_type: 'oa', query: 'q=b&type=oa' }, results: [{ caseName: 'E v. F', absolute_url: '/audio/3/' }, { caseName: 'G v. H', absolute_url: '/audio/4/' }] },
    ],
  })
  t.equal(digest.subject, 'Your weekly alerts: 3 new hits')
  t.match(digest.text, /weekly oral arguments alert "B" has 2 new hits/)

  const prayer = prayerGrantedMail({ siteUrl: 'https://lds.test', document: { description: 'Complaint', absolute_url: '/docket/5/1/', case_name: 'A v. B' }, prayerCount: 3 })
  t.equal(prayer.subject, 'A document you requested is now available: Complaint')
  t.match(prayer.text, /3 people had asked for it/)
  t.match(prayer.html, /<a href="https:\/\/lds\.test\/docket\/5\/1\/">/)
  t.equal(escapeHtml(`<a href="x">'&'</a>`), '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;')
})

t.test('builders go through the real transport end to end', async (t) => {
  const sink = await startSmtpSink()
  t.teardown(() => sink.close())
  const mailer = createMailer({ host: sink.host, port: sink.port, from: FROM })
  t.teardown(() => mailer.close())
  const m = prayerGrantedMail({ siteUrl: 'https://lds.test', document: { description: 'Order', absolute_url: '/d/1/' } })
  await mailer.send({ to: 'u@example.org', ...m })
  const [got] = await sink.waitFor(1)
  t.equal(got.subject, m.subject)
  t.match(got.text, /Read it here: https:\/\/lds\.test\/d\/1\//)
  t.match(got.html, /<a href="https:\/\/lds\.test\/d\/1\/">/)
})
