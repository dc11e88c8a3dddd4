import { announcementStream, type AnnouncementEvent } from '@forum/contracts';
import { unreachable } from '../command.ts';
import type { Stream } from '../stream.ts';

/** An announcement, and when it was published (how far a member who read it has read). */
export type AnnouncementState = { readonly status: 'none' } | { readonly status: 'published'; readonly announcementId: string; readonly publishedAt: string };

export const initialAnnouncementState: AnnouncementState = { status: 'none' };

export function evolve(_state: AnnouncementState, event: AnnouncementEvent): AnnouncementState {
  switch (event.type) {
    case 'AnnouncementPublished':
      return { status: 'published', announcementId: event.data.announcementId, publishedAt: event.data.publishedAt };
    default:
      return unreachable(event.type);
  }
}

/** An announcement's stream, as the command handler reads it. */
export const announcementStreamOf = (announcementId: string): Stream<AnnouncementState, AnnouncementEvent> => ({
  id: announcementStream(announcementId),
  evolve,
  initialState: initialAnnouncementState,
});
