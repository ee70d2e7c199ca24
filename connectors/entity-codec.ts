/** Moved to schemas/events/entity-codec.ts (the topic stage's home); kept while older imports are updated. */
export * from '../schemas/events/entity-codec.js'
