import type { PostsPage } from '@forum/contracts';
import { afterAll, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../testing/forum.ts';

let forum: TestForum | undefined;
afterAll(async () => forum?.stop());

it('a first start answers with its demo data as soon as it has started (the read side has applied the seed)', async () => {
  forum = await startTestForum();
  const page = (await (await forum.api('/api/posts?page=1')).json()) as PostsPage;
  expect(page.posts.length).toBeGreaterThan(0);
  expect(page.totalCount).toBeGreaterThanOrEqual(page.posts.length);
});
