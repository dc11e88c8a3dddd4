import type { NewUser, TestForum } from '@forum/infra/testing';
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { chromiumMissing, chromiumMissingMessage, journeySteps, PHONE, setUpJourneys, snapshot } from './support.ts';

/**
 * What members see of staff's work (issue #43), in Debian's Chromium, against the whole product on a
 * free port; staff act through the API (the console is not the subject here): a suspended member's
 * banner on every page and their refused comment; a locked and pinned post on the home page and its
 * own page; a hidden post's reason, seen by its author on the post and in their notifications,
 * while anyone else finds no such post. axe-core finds no serious or critical violation.
 */
if (chromiumMissing) console.warn(chromiumMissingMessage('e2e/moderation-forum.e2e.test.ts'));

describe.skipIf(chromiumMissing)('#43 staff marks as members see them, in Chromium', () => {
  const journey = setUpJourneys('moderation-forum');
  const { expectAccessible, signInAt, apiPost, readModelsReach, toast } = journeySteps(journey);
  let forum: TestForum;
  let page: Page;
  beforeEach(() => {
    ({ forum, page } = journey);
  });

  /** A staff call through the API with the demo admin's token; the read side has it once it answers. */
  async function staff(method: 'PUT' | 'POST' | 'DELETE', path: string, json?: unknown) {
    const admin = await forum.demoAdmin();
    const response = await forum.api(path, { method, token: admin.token, json });
    expect(response.status, `${method} ${path}`).toBe(200);
    const { position } = (await response.json()) as { position?: string };
    if (position) await readModelsReach(position);
  }

  /** A member the forum knows (registered), so staff can act on them. */
  async function member(name: string): Promise<NewUser & { forumId: string }> {
    const user = await forum.newUser(name);
    return { ...user, forumId: (await forum.register(user.token))._id };
  }

  it('a suspended member sees the banner on every page, and their comment is refused with its text', { timeout: 120_000 }, async () => {
    const [ann, sam] = await Promise.all([member('Ann Writer'), member('Sam Suspended')]);
    const postId = await apiPost(ann, 'Suspensions, seen by the suspended');
    await staff('POST', `/api/admin/users/${sam.forumId}/suspend`, { reason: 'Spam in three threads', period: 'indefinite' });
    const text = 'Your account is suspended until a moderator lifts it: Spam in three threads. You can still read the forum.';

    await signInAt(sam, '/dashboard/notifications');
    const banner = page.getByRole('status').filter({ hasText: text });
    await banner.waitFor();
    await page.goto(`${forum.url}/post/${postId}`);
    await banner.waitFor();
    await expectAccessible('the post page, suspended');
    await snapshot(page, 'suspended-banner');

    await page.getByRole('textbox', { name: 'Write a comment' }).fill('Let me in');
    await page.getByRole('button', { name: 'Post', exact: true }).click();
    await toast(text).waitFor();
    expect(await page.getByRole('list', { name: 'Comments' }).count()).toBe(0);
    await page.setViewportSize(PHONE);
    await snapshot(page, 'suspended-banner-phone');
  });

  it('a locked, pinned post comes first on the home page with its marks; its page says why and offers no comment form', { timeout: 120_000 }, async () => {
    const [ann, bob] = await Promise.all([member('Ann Pinned'), member('Bob Reader')]);
    const postId = await apiPost(ann, 'House rules: read me first');
    await apiPost(ann, 'A newer post than the rules');
    await staff('PUT', `/api/admin/posts/${postId}/lock`, { reason: 'The rules are settled' });
    await staff('PUT', `/api/admin/posts/${postId}/pin`);

    await signInAt(bob, '/dashboard/notifications');
    await page.goto(forum.url);
    const first = page.getByRole('article').first();
    await first.getByRole('heading', { name: 'House rules: read me first' }).waitFor();
    await first.getByText('Pinned', { exact: true }).waitFor();
    await first.getByText('Locked', { exact: true }).waitFor();
    await expectAccessible('the home page with a pin');
    await snapshot(page, 'home-pinned');
    await page.getByRole('combobox', { name: 'Sort by' }).selectOption('popularity');
    await page.waitForURL((url) => url.searchParams.get('sort') === 'popularity');
    // the sort chosen shows at once, while the page's navigation is still under way
    expect(await page.getByRole('combobox', { name: 'Sort by' }).inputValue()).toBe('popularity');
    await page.getByRole('article').first().getByRole('heading', { name: 'House rules: read me first' }).waitFor();

    await first.getByRole('link', { name: 'House rules: read me first' }).click();
    await page.getByText('This post is locked: no new comments can be added. Reason: The rules are settled.').waitFor();
    expect(await page.getByRole('textbox', { name: 'Write a comment' }).count()).toBe(0);
    await expectAccessible('a locked post');
    await snapshot(page, 'post-locked');
    await page.setViewportSize(PHONE);
    await snapshot(page, 'post-locked-phone');
    await page.goto(forum.url);
    await page.getByRole('article').first().getByText('Pinned', { exact: true }).waitFor();
    await snapshot(page, 'home-pinned-phone');
  });

  it("a hidden post's author sees why on the post and in their notifications; anyone else finds no such post", { timeout: 120_000 }, async () => {
    const ann = await member('Ann Hidden');
    const postId = await apiPost(ann, 'Buy my course at cheap-deploys.example');
    await staff('PUT', `/api/admin/posts/${postId}/hide`, { reason: 'Advertising is not allowed here' });

    await page.goto(`${forum.url}/post/${postId}`);
    await page.getByRole('heading', { name: 'Post not found' }).waitFor();

    await signInAt(ann, '/dashboard/notifications');
    const notification = page.getByRole('link', { name: /A moderator hid your post "Buy my course at cheap-deploys\.example"/ });
    await notification.getByText('Reason: Advertising is not allowed here').waitFor();
    await expectAccessible('the notification centre with a moderation item');
    await notification.click();
    await page.waitForURL((url) => url.pathname === `/post/${postId}`);
    const mark = page.getByRole('alert').filter({ hasText: 'A moderator hid your post' });
    await mark.getByText(/Reason: Advertising is not allowed here\. Only you and the moderators can see it\./).waitFor();
    await expectAccessible('a hidden post, as its author');
    await snapshot(page, 'post-hidden-author');
    await page.setViewportSize(PHONE);
    await snapshot(page, 'post-hidden-author-phone');
  });
});
