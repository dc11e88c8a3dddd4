import { projectionStream, type OperationsEvent, type ProjectionRebuildRequested } from '@forum/contracts';
import type { CommandMeta } from '../command.ts';
import type { Stream } from '../stream.ts';

/** A projection's stream holds only records of requests: nothing in it constrains the next one. */
export type ProjectionState = { readonly requests: number };

export const initialProjectionState: ProjectionState = { requests: 0 };

export function evolve(state: ProjectionState): ProjectionState {
  return { requests: state.requests + 1 };
}

/** The record of a rebuild the projection runner has accepted (the build it started or joined). */
export function recordRebuild(
  build: { projection: string; version: number; build: number; resumed: boolean },
  meta: CommandMeta,
): ProjectionRebuildRequested[] {
  return [{ type: 'ProjectionRebuildRequested', data: { ...build, requestedAt: meta.now.toISOString() } }];
}

/** A projection's stream, as the command handler reads it. */
export const projectionStreamOf = (projection: string): Stream<ProjectionState, OperationsEvent> => ({
  id: projectionStream(projection),
  evolve,
  initialState: initialProjectionState,
});
