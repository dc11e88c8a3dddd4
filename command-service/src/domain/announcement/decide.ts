import { ANONYMOUS_NAME, type AnnouncementEvent } from '@forum/contracts';
import { Conflict, InvalidInput } from '../errors.ts';
import { unreachable, type CommandMeta } from '../command.ts';
import type { AnnouncementState } from './announcement.ts';

/**
 * Rules (spec §2 Make Announcement, §5; issue "whole forum on the API"):
 * - title and description are required (trimmed; spec §5's messages);
 * - the author's name and photo are the publishing admin's forum record, the date the server's clock;
 * - an announcement is published once under its id.
 * Who may publish (an admin) is checked where the command is wired (commands.ts), on the actor's own stream.
 */
export type PublishAnnouncement = {
  type: 'PublishAnnouncement';
  data: { announcementId: string; title: string; description: string; author: { id: string; name: string; photo: string } };
};
export type AnnouncementCommand = PublishAnnouncement;

export function decide(command: AnnouncementCommand, state: AnnouncementState, meta: CommandMeta): AnnouncementEvent[] {
  switch (command.type) {
    case 'PublishAnnouncement':
      return publish(command, state, meta);
    default:
      return unreachable(command.type);
  }
}

function publish(command: PublishAnnouncement, state: AnnouncementState, meta: CommandMeta): AnnouncementEvent[] {
  if (state.status !== 'none') throw new Conflict(`Announcement ${command.data.announcementId} already exists`);
  const title = command.data.title.trim();
  const description = command.data.description.trim();
  const missing = { ...(title ? {} : { title: ['Title is required'] }), ...(description ? {} : { description: ['Description is required'] }) };
  if (Object.keys(missing).length > 0) throw new InvalidInput(missing);
  const { author } = command.data;
  return [
    {
      type: 'AnnouncementPublished',
      data: {
        announcementId: command.data.announcementId,
        title,
        description,
        authorId: author.id,
        authorName: author.name.trim() || ANONYMOUS_NAME,
        authorPhoto: author.photo,
        publishedAt: meta.now.toISOString(),
      },
    },
  ];
}
