/**
 * The rules of alerts as pure code: search alert rates, types, create/update checks and quotas,
 * digest schedules, docket alert dormancy, and prayers. No I/O.
 */
export * from './search-alerts.js'
export * from './quotas.js'
export * from './digest.js'
export * from './dormancy.js'
export * from './prayers.js'
