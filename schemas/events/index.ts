/** The topic stage, shared by connectors and streams: names, the event envelope, commands and the wire format. */
export * from './names.js'
export * from './envelope.js'
export * from './wire.js'
export * from './commands.js'
export * from './watermarks.js'
