import { z } from 'zod';
import { defineEvent, isoDate } from './define.ts';

/** One stream per message of the Contact page. */
export const contactMessageStream = (messageId: string) => `contact-${messageId}`;

/** A visitor's message from the Contact page, for the admins to read. */
export const ContactMessageReceived = defineEvent(
  'ContactMessageReceived',
  1,
  z.object({ messageId: z.string().uuid(), name: z.string(), email: z.string(), message: z.string(), receivedAt: isoDate }),
);
export type ContactMessageReceived = { type: 'ContactMessageReceived'; data: z.infer<typeof ContactMessageReceived.schema> };

export type ContactEvent = ContactMessageReceived;
