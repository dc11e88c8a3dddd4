import { v7 } from 'uuid';

/**
 * A new id for something the server names (a post, a comment, a tag, a warning…): a UUIDv7,
 * whose first 48 bits are the time in milliseconds, so ids made later sort later. New rows
 * then land at the right edge of the indexes that hold these ids (the event store's streams
 * and events, the read models' primary keys), on pages already in memory, instead of on a
 * random leaf page of an index far larger than the cache. The time an id carries is also
 * shown beside what it names (created at, warned at…), so it tells nobody anything new.
 */
export const newId = (): string => v7();
