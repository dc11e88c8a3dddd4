import { contactMessageStream, type ContactEvent } from '@forum/contracts';
import { unreachable } from '../command.ts';

export { contactMessageStream };

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
