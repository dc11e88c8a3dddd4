import { authorOf, requireAdmin, type Identity } from '../actor.ts';
import { acceptedAs, type CommandHandler } from '../command-handler.ts';
import type { CommandMeta } from '../command.ts';
import type { Idempotency } from '../execute.ts';
import { announcementStreamOf } from './announcement.ts';
import { decide } from './decide.ts';

/** The commands decided on an announcement's stream. */
export function createAnnouncementCommands({ handle }: CommandHandler) {
  return {
    /** 'Post Announcement' (POST /api/admin/announcements): the author is the admin's forum record. */
    publishAnnouncement: (who: Identity, input: { announcementId: string; title: string; description: string }, meta: CommandMeta, idempotency?: Idempotency) =>
      handle(
        { who, meta, idempotency },
        {
          stream: announcementStreamOf(input.announcementId),
          decide: (announcement, { actor }) => (
            requireAdmin(actor),
            decide({ type: 'PublishAnnouncement', data: { ...input, author: authorOf(actor) } }, announcement, meta)
          ),
          answer: acceptedAs(input.announcementId),
        },
      ),
  };
}
