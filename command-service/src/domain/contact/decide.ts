import type { ContactEvent } from '@forum/contracts';
import { Conflict, InvalidInput } from '../errors.ts';
import { unreachable, type CommandMeta } from '../command.ts';
import type { ContactMessageState } from './contact.ts';

/**
 * Rules (spec §2 Contact, §5 "All Contact fields are required"; issue "whole forum on the API"):
 * - name, email and message are required (trimmed), the email is kept lower-cased;
 * - the time is the server's clock; a message is received once under its id.
 * The format and length checks are the HTTP schema's; the rate limit per client address is the route's.
 */
export type ReceiveContactMessage = { type: 'ReceiveContactMessage'; data: { messageId: string; name: string; email: string; message: string } };
export type ContactCommand = ReceiveContactMessage;

export function decide(command: ContactCommand, state: ContactMessageState, meta: CommandMeta): ContactEvent[] {
  switch (command.type) {
    case 'ReceiveContactMessage':
      return receive(command, state, meta);
    default:
      return unreachable(command.type);
  }
}

function receive(command: ReceiveContactMessage, state: ContactMessageState, meta: CommandMeta): ContactEvent[] {
  if (state.status !== 'none') throw new Conflict(`Message ${command.data.messageId} already exists`);
  const name = command.data.name.trim();
  const email = command.data.email.trim().toLowerCase();
  const message = command.data.message.trim();
  const missing = {
    ...(name ? {} : { name: ['Name is required'] }),
    ...(email ? {} : { email: ['Email is required'] }),
    ...(message ? {} : { message: ['Message is required'] }),
  };
  if (Object.keys(missing).length > 0) throw new InvalidInput(missing);
  return [{ type: 'ContactMessageReceived', data: { messageId: command.data.messageId, name, email, message, receivedAt: meta.now.toISOString() } }];
}
