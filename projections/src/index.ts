import { postsProjection } from './posts/projection.ts';
import type { Projection } from './runner/projection.ts';
import { tagsProjection } from './tags/projection.ts';
import { usersProjection } from './users/projection.ts';

export * from './runner/checkpoints.ts';
export * from './runner/projection.ts';
export * from './runner/runner.ts';
export * from './runner/status.ts';
export { postsProjection, tagsProjection, usersProjection };

/** Every read model of the forum, at its current version. */
export const allProjections: readonly Projection[] = [postsProjection, tagsProjection, usersProjection];
