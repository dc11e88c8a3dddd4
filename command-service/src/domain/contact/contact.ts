import { contactMessageStream, type ContactEvent } from '@forum/contracts';
import { unreachable } from '../command.ts';
import type { Stream } from '../stream.ts';

export type ContactMessageState = { readonly status: 'none' } | { readonly status: 'received' };

export const initialContactMessageState: ContactMessageState = { status: 'none' };

export function evolve(_state: ContactMessageState, event: ContactEvent): ContactMessageState {
  switch (event.type) {
    case 'ContactMessageReceived':
      return { status: 'received' };
    default:
      return unreachable(event.type);
  }
}

/** A contact message's stream, as the command handler reads it. */
export const contactMessageStreamOf = (messageId: string): Stream<ContactMessageState, ContactEvent> => ({
  id: contactMessageStream(messageId),
  evolve,
  initialState: initialContactMessageState,
});
