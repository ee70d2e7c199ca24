/** Why an original could not be made into an MP3: a short code (a metric label), a sentence, and whether trying later may help. */
export type AudioFailureReason =
  | 'no-original' | 'bad-url' | 'forbidden-address' | 'unreachable' | 'timeout' | 'http-status' | 'too-large' | 'too-many-redirects'
  | 'undecodable' | 'transcode-timeout' | 'transcode-failed' | 'no-docket'

/** Failures a later attempt may get past (an original not written yet, the network, a slow server, a docket not yet applied); the others wait for a changed record. */
const RETRYABLE = new Set<AudioFailureReason>(['no-original', 'unreachable', 'timeout', 'http-status', 'transcode-timeout', 'no-docket'])

export class AudioFailure extends Error {
  constructor(readonly reason: AudioFailureReason, message: string) { super(message); this.name = 'AudioFailure' }
  get retryable(): boolean { return RETRYABLE.has(this.reason) }
}
