/** The kit shared by tests and benchmarks: seeded randomness, waiting on facts, free ports, flags. */
export { mulberry32, intBetween, pick, chance, type Rng } from './random.js'
export { waitFor, GiveUp, type Truthy } from './wait-for.js'
export { freePort } from './ports.js'
export { parseFlags, usage, type FlagSpec, type Flags } from './args.js'
