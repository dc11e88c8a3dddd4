import { acceptedAs, type CommandHandler } from '../command-handler.ts';
import type { CommandMeta } from '../command.ts';
import type { Costs } from '../limits.ts';
import { contactMessageStreamOf } from './contact.ts';
import { decide } from './decide.ts';

/** The commands decided on a contact message's stream. */
export function createContactCommands({ handle }: CommandHandler, cost: Costs) {
  return {
    /**
     * The Contact page (POST /api/contact): anyone, no token needed, so no actor. The command's cost
     * is counted per `sender`, the client's address (anyone may write, signed in or not).
     */
    receiveContactMessage: (input: { messageId: string; name: string; email: string; message: string }, meta: CommandMeta, sender: string) =>
      handle(
        { meta, cost: cost('contact', sender) },
        {
          stream: contactMessageStreamOf(input.messageId),
          decide: (message) => decide({ type: 'ReceiveContactMessage', data: input }, message, meta),
          answer: acceptedAs(input.messageId),
        },
      ),
  };
}
