import type { HistoryEntry, HistoryKind } from '@forum/contracts';

/**
 * Names the stream's own events give (a user's name from their registration and profile updates,
 * a post's author from its creation): the history shows them for the ids it would otherwise show.
 */
export function namesIn(events: readonly HistoryEntry[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const { type, data } of events) {
    const d = (data ?? {}) as Record<string, unknown>;
    if (type === 'UserRegistered' && typeof d.userId === 'string' && typeof d.name === 'string') names.set(d.userId, d.name);
    if (type === 'ProfileUpdated' && typeof d.userId === 'string') {
      const changes = (d.changes ?? {}) as Record<string, unknown>;
      if (typeof changes.name === 'string') names.set(d.userId, changes.name);
    }
    if (type === 'PostCreated' && typeof d.authorId === 'string' && typeof d.authorName === 'string') names.set(d.authorId, d.authorName);
  }
  return names;
}

/** What the page is the history of: the user's name or the post's title, as the events last gave it (its creation, or its latest edit). */
export function subjectOf(kind: HistoryKind, id: string, events: readonly HistoryEntry[]): string {
  if (kind === 'user') {
    const name = namesIn(events).get(id);
    return name ? name : `user ${id}`;
  }
  const titled = events.findLast(
    (e) => (e.type === 'PostCreated' || e.type === 'PostEdited') && typeof (e.data as { title?: unknown } | null)?.title === 'string',
  );
  return titled ? `the post “${(titled.data as { title: string }).title}”` : `post ${id}`;
}

/** Which stream an event is of, by its kind ('vote' of `vote-<post>-<user>`), and its number there: "vote #1". */
export function streamLabel(streamId: string, version: number): string {
  const dash = streamId.indexOf('-');
  return `${dash > 0 ? streamId.slice(0, dash) : streamId} #${version}`;
}

/** The data of an event on one line, shortened (as forumctl history's table does). */
export function dataPreview(data: unknown, max = 72): string {
  const text = JSON.stringify(data) ?? '';
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
