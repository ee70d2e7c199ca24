/**
 * The rules of webhooks as pure code: event types and versions, the event lifecycle, the retry
 * schedule, the success rule, envelopes and payloads, test-event samples, Standard Webhooks
 * signatures and outbound URL safety. No I/O: the delivery consumer (streams/) does the HTTP,
 * the clock and the storage.
 */
export * from './event-types.js'
export * from './event-status.js'
export * from './retry-schedule.js'
export * from './delivery.js'
export * from './envelope.js'
export * from './payloads.js'
export * from './samples.js'
export * from './signing.js'
export * from './url-safety.js'
