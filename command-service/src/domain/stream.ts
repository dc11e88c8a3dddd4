import type { LogPosition } from '@forum/contracts';

/** A stream as a command reads it: its id, and how its events fold into its state (Emmett's `evolve` and `initialState`). */
export interface Stream<State, Event> {
  readonly id: string;
  readonly evolve: (state: State, event: Event) => State;
  readonly initialState: State;
}

/** A stream as read: its state, the version to expect when appending to it, and its last event's position (null: no events). */
export interface Read<State> {
  readonly streamId: string;
  readonly state: State;
  readonly version: number;
  readonly position: LogPosition | null;
}
