#!/usr/bin/env node
// The `lds` command: loads the TypeScript CLI through tsx (a runtime dependency).
import { register } from 'tsx/esm/api'
register()
await import('./lds-cli.ts')
