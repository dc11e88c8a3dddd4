import { announcementStream, type AnnouncementEvent } from '@forum/contracts';
import { unreachable } from '../command.ts';

export { announcementStream };

export type AnnouncementState = { readonly status: 'none' } | { readonly status: 'published' };

export const initialAnnouncementState: AnnouncementState = { status: 'none' };

export function evolve(_state: AnnouncementState, event: AnnouncementEvent): AnnouncementState {
  switch (event.type) {
    case 'AnnouncementPublished':
      return { status: 'published' };
    default:
      return unreachable(event.type);
  }
}
