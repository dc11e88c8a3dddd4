/**
 * What the query side shares with the projections, and all it may import of them: the names of
 * the read schema, of a build's schema and of the checkpoints' channel, the projections' status as
 * their checkpoints say it, the snapshots' list, and the reads of a page through the anchors the projections keep. The
 * builders (migrations, `apply`, replays) stay behind the package's main entry, which the
 * composition imports (infra/src/deps/layers.unit.test.ts holds the query side to this entry).
 */
export { CHECKPOINTS_CHANNEL, READ_SCHEMA } from './runner/projection.ts';
export { buildSchema } from './runner/checkpoints.ts';
export { projectionStatus } from './runner/status.ts';
export { listSnapshots } from './operations/snapshot-list.ts';
export { pageThroughBlocks, type PostList } from './posts/page-reads.ts';
export { USER_LISTS, usersThroughBlocks, type UserList } from './users/page-reads.ts';
export { SITEMAP_BLOCK } from './sitemap/blocks.ts';

/** The users projection's name: whose checkpoint tells the query side that a member's record changed. */
export const USERS_PROJECTION = 'users';
