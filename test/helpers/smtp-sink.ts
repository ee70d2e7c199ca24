/**
 * A real SMTP server on a random loopback port that keeps every message it receives, parsed, in
 * memory. Tests point the mailer at `host`/`port` and wait on `waitFor(n)`.
 *
 *   const sink = await startSmtpSink()          // or { auth: { user, pass } } to require AUTH
 *   ...send...
 *   const [msg] = await sink.waitFor(1)
 *   await sink.close()
 */
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'
import { simpleParser, type AddressObject } from 'mailparser'

export interface SunkMessage {
  /** SMTP envelope: MAIL FROM and RCPT TO. */
  envelope: { from: string; to: string[] }
  /** The user that authenticated, when the sink requires AUTH. */
  user: string | null
  subject: string
  from: string
  to: string[]
  text: string
  html: string | null
  headers: Record<string, string>
  raw: string
}

export interface SmtpSink {
  host: string
  port: number
  messages: SunkMessage[]
  /** Resolves with all messages once at least `count` arrived; rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<SunkMessage[]>
  close(): Promise<void>
}

export interface SmtpSinkOptions {
  /** Require AUTH PLAIN/LOGIN with these credentials (allowed without TLS, loopback only). */
  auth?: { user: string; pass: string }
  /** Answer DATA with this SMTP error instead of accepting (e.g. to test send failures). */
  rejectWith?: { code: number; message: string }
}

const addresses = (a: AddressObject | AddressObject[] | undefined): string[] =>
  (Array.isArray(a) ? a : a ? [a] : []).flatMap((o) => o.value.map((v) => v.address ?? '')).filter(Boolean)

export async function startSmtpSink(opts: SmtpSinkOptions = {}): Promise<SmtpSink> {
  const messages: SunkMessage[] = []
  const waiters = new Set<() => void>()

  const server = new SMTPServer({
    secure: false,
    disabledCommands: opts.auth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    allowInsecureAuth: true,
    authOptional: !opts.auth,
    logger: false,
    onAuth(auth, _session, cb) {
      if (opts.auth && auth.username === opts.auth.user && auth.password === opts.auth.pass) return cb(null, { user: auth.username })
      cb(new Error('Invalid username or password'))
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () => {
        if (opts.rejectWith) {
          const err = Object.assign(new Error(opts.rejectWith.message), { responseCode: opts.rejectWith.code })
          return cb(err)
        }
        const raw = Buffer.concat(chunks)
        simpleParser(raw).then((parsed) => {
          const headers: Record<string, string> = {}
          for (const line of parsed.headerLines) headers[line.key] = line.line.slice(line.line.indexOf(':') + 1).trim()
          messages.push({
            envelope: {
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((r) => r.address),
            },
            user: typeof session.user === 'string' ? session.user : null,
            subject: parsed.subject ?? '',
            from: addresses(parsed.from)[0] ?? '',
            to: addresses(parsed.to),
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : null,
            headers,
            raw: raw.toString('utf8'),
          })
          for (const w of waiters) w()
          cb()
        }, (err: Error) => cb(err))
      })
    },
  })

  server.listen(0, '127.0.0.1')
  await once(server.server, 'listening')
  const { port } = server.server.address() as AddressInfo

  return {
    host: '127.0.0.1',
    port,
    messages,
    waitFor(count, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (messages.length < count) return
          cleanup()
          resolve(messages.slice())
        }
        const timer = setTimeout(() => { cleanup(); reject(new Error(`smtp sink: ${messages.length} of ${count} messages after ${timeoutMs} ms`)) }, timeoutMs)
        const cleanup = () => { clearTimeout(timer); waiters.delete(check) }
        waiters.add(check)
        check()
      })
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
