import { createHash } from 'node:crypto';

/**
 * What a limit counts by (a member's id, a client address, an email) as the key it is stored under:
 * hashed, so no ids, addresses or emails sit in the counters' table, and all of one length.
 */
export const limiterKey = (value: string) => createHash('sha256').update(value).digest('base64url');
