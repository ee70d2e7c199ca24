/**
 * The citation network's state judged on its own (no reference run needed): every opinion has its
 * state, built from the opinion's current version; edges and states agree; no opinion still waits
 * on a citation that resolves. Adds what it finds to the case's checks; returns lost/duplicated.
 */
import type { Runtime } from '../../../bin/runtime.js'
import type { CaseContext } from './case.js'
import { stateTally, stuckWaiting } from './network.js'

export async function checkNetworkState(ctx: CaseContext, rt: Runtime): Promise<{ lost: number; duplicated: number; edgeRows: number; stateRows: number }> {
  const state = await stateTally(rt)
  const stuck = await stuckWaiting(rt)
  ctx.record.details.networkState = { ...state, stuckWaiting: stuck }
  ctx.check(state.missingState === 0, `${state.missingState} opinions without a citation_state row`)
  ctx.check(state.staleState === 0, `${state.staleState} citation_state rows built from an older version of their opinion`)
  ctx.check(state.edgesNotInTable === 0 && state.edgesWithoutState === 0, `edges and states disagree: ${state.edgesNotInTable} listed edges missing from opinions_cited, ${state.edgesWithoutState} edges no state lists`)
  ctx.check(stuck.opinions === 0, `${stuck.opinions} opinions still wait on a citation that resolves (never relinked), e.g. ${stuck.examples[0]}`)
  return {
    lost: state.missingState + state.edgesNotInTable + stuck.opinions,
    duplicated: state.stateDuplicates + state.staleState + state.edgeDuplicates + state.edgesWithoutState,
    edgeRows: state.edgeRows, stateRows: state.stateRows,
  }
}
