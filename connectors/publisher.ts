/** Moved to schemas/events/publisher.ts (the topic stage's home); kept while older imports are updated. */
export * from '../schemas/events/publisher.js'
