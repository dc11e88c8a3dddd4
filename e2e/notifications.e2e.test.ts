import type { NewUser, TestForum } from '@forum/infra/testing';
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { chromiumMissing, chromiumMissingMessage, journeySteps, setUpJourneys, signInAtRealm, snapshot } from './support.ts';

/**
 * Notifications as members meet them (issue #42, docs/notifications.md), each member in a browser of
 * their own: a reply moves the author's bell without a reload and opens the comment, whose author's name
 * leads to his public profile; a mention chosen
 * from the editor's list reaches the member named; following a tag
 * brings its new posts to the bell; what a member follows and has not seen comes in the digest, in
 * the development mailbox. axe-core finds no serious or critical violation.
 */
if (chromiumMissing) console.warn(chromiumMissingMessage('e2e/notifications.e2e.test.ts'));

describe.skipIf(chromiumMissing)('notifications of replies, mentions and followed tags, by email too, in Chromium', () => {
  const journey = setUpJourneys('notifications', { NOTIFICATION_DIGEST_INTERVAL_MS: '2000', NOTIFICATION_MAIL_POLL_MS: '500' });
  const { apiPost, expectAccessible, signInAt } = journeySteps(journey);
  let forum: TestForum;
  let page: Page;
  beforeEach(() => {
    ({ forum, page } = journey);
  });

  /** The member's own browser, signed in, at `path`. */
  const browserOf = async (member: NewUser, path: string) => {
    const context = await journey.browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
    const other = await context.newPage();
    await other.goto(`${forum.url}/dashboard`);
    await signInAtRealm(other, member.email, member.password);
    await other.waitForURL((url) => url.pathname === '/dashboard');
    await other.goto(`${forum.url}${path}`);
    return { page: other, close: () => context.close() };
  };

  it('bob comments on alice’s post in his browser; alice’s bell moves without a reload and opens the comment', { timeout: 150_000 }, async () => {
    const alice = await forum.newUser('Alice Belled');
    const bob = await forum.newUser('Bob Replies');
    await signInAt(alice, '/dashboard');
    const title = `Where do you host ${Date.now()}`;
    const postId = await apiPost(alice, title);
    await page.goto(`${forum.url}/`);
    await page.getByRole('button', { name: 'Notifications', exact: true }).waitFor();

    const bobs = await browserOf(bob, `/post/${postId}`);
    try {
      const comments = bobs.page.getByRole('region', { name: 'Comments' });
      await comments.getByRole('textbox', { name: 'Write a comment' }).fill('We run it on two small machines.');
      await comments.getByRole('button', { name: 'Post', exact: true }).click();
      await comments.getByRole('list', { name: 'Comments' }).getByText('We run it on two small machines.').waitFor();
    } finally {
      await bobs.close();
    }

    // no reload: the member's stream moves the bell
    const bell = page.getByRole('button', { name: 'Notifications, 1 new' });
    await bell.waitFor({ timeout: 20_000 });
    await bell.click();
    const panel = page.getByRole('dialog', { name: 'Notifications' });
    const reply = panel.getByRole('link', { name: new RegExp(`${bob.name} commented on ${title} \\(new\\)`) });
    await reply.waitFor();
    await expectAccessible('the bell open on a reply');
    await snapshot(page, 'notifications-bell-reply');
    await reply.click();
    await page.waitForURL((url) => url.pathname === `/post/${postId}` && url.hash.startsWith('#comment-'));
    const commentId = new URL(page.url()).hash.slice('#comment-'.length);
    await expect.poll(() => page.locator(`[id="comment-${commentId}"]`).getAttribute('aria-current')).not.toBeNull();
    await page.getByRole('button', { name: 'Notifications', exact: true }).waitFor();
    await expectAccessible('the post opened at the comment');

    // the comment's author is a link to his public profile
    await page.getByRole('region', { name: 'Comments' }).getByRole('list', { name: 'Comments' }).getByRole('link', { name: bob.name }).click();
    await page.waitForURL((url) => url.pathname === `/u/${bob.id}`);
    await page.getByRole('heading', { level: 1, name: bob.name }).waitFor();
    await page.getByText('Bronze Member').waitFor();
    await expectAccessible('the public profile of a comment’s author');

    // on the home page the author's name stands above the card's own link to the post
    await page.goto(`${forum.url}/`);
    await page.getByRole('article').filter({ hasText: title }).getByRole('link', { name: alice.name }).click();
    await page.waitForURL((url) => url.pathname === `/u/${alice.id}`);
    await page.getByRole('heading', { level: 1, name: alice.name }).waitFor();
  });

  it('alice mentions cara, chosen from the editor’s list; cara’s bell says so and opens the comment', { timeout: 150_000 }, async () => {
    const alice = await forum.newUser('Alice Mentions');
    const cara = await forum.newUser('Cara Mentioned');
    const { handle } = await forum.register(cara.token);
    expect(handle).toMatch(/^Cara_Mentioned/);
    const title = `Who knows PostgreSQL ${Date.now()}`;
    await signInAt(alice, '/dashboard');
    const postId = await apiPost(alice, title);
    const caras = await browserOf(cara, '/');
    try {
      await caras.page.getByRole('button', { name: 'Notifications', exact: true }).waitFor();

      await page.goto(`${forum.url}/post/${postId}`);
      const comments = page.getByRole('region', { name: 'Comments' });
      const input = comments.getByRole('textbox', { name: 'Write a comment' });
      await input.fill('Ask ');
      await input.pressSequentially('@Cara_M');
      const option = page.getByRole('listbox', { name: 'Members to mention' }).getByRole('option', { name: new RegExp(`@${handle}`) });
      await option.waitFor();
      await expectAccessible('the editor offering members to mention');
      await snapshot(page, 'notifications-mention-list');
      await page.keyboard.press('Enter');
      expect(await input.inputValue()).toBe(`Ask @${handle} `);
      await input.pressSequentially('about indexes.');
      await comments.getByRole('button', { name: 'Post', exact: true }).click();
      // the mention is a link to cara's profile
      await comments
        .getByRole('list', { name: 'Comments' })
        .getByRole('link', { name: `@${handle}` })
        .waitFor();

      const bell = caras.page.getByRole('button', { name: 'Notifications, 1 new' });
      await bell.waitFor({ timeout: 20_000 });
      await bell.click();
      const mention = caras.page
        .getByRole('dialog', { name: 'Notifications' })
        .getByRole('link', { name: new RegExp(`${alice.name} mentioned you in ${title}`) });
      await mention.click();
      await caras.page.waitForURL((url) => url.pathname === `/post/${postId}` && url.hash.startsWith('#comment-'));
      await caras.page.getByText(/about indexes\./).waitFor();
    } finally {
      await caras.close();
    }
  });

  it('alice follows a tag; bob’s new post there reaches her bell, and her digest in the mailbox', { timeout: 150_000 }, async () => {
    const admin = await forum.demoAdmin();
    const tag = `hosting${Date.now() % 100000}`;
    expect((await forum.api('/api/admin/tags', { method: 'POST', token: admin.token, json: { name: tag } })).status).toBe(201);
    const alice = await forum.newUser('Alice Follows', { emailVerified: true });
    const bob = await forum.newUser('Bob Posts');
    await signInAt(alice, '/dashboard');
    await page.goto(`${forum.url}/tags/${tag}`);
    const follow = page.getByRole('button', { name: `Follow #${tag}` });
    await expect.poll(() => follow.getAttribute('aria-pressed')).toBe('false');
    await follow.click();
    const following = page.getByRole('button', { name: `Following #${tag}` });
    await expect.poll(() => following.getAttribute('aria-pressed')).toBe('true');
    await expectAccessible('a followed tag');

    const title = `Cheap hosting compared ${Date.now()}`;
    await apiPost(bob, title, [tag]);
    const bell = page.getByRole('button', { name: 'Notifications, 1 new' });
    await bell.waitFor({ timeout: 20_000 });
    await bell.click();
    await page
      .getByRole('dialog', { name: 'Notifications' })
      .getByRole('link', { name: new RegExp(`New post in ${tag}: ${title}`) })
      .waitFor();
    await page.keyboard.press('Escape');

    // a followed tag's posts wait for the digest (the default); it comes to the mailbox
    await expect
      .poll(
        async () => {
          await page.goto(`${forum.url}/realms/forum/mailbox`);
          return page
            .getByRole('article')
            .filter({ hasText: `To ${alice.email}` })
            .filter({ hasText: 'Your digest' })
            .count();
        },
        { timeout: 30_000, interval: 1000 },
      )
      .toBeGreaterThan(0);
    const digest = page
      .getByRole('article')
      .filter({ hasText: `To ${alice.email}` })
      .filter({ hasText: 'Your digest' });
    await digest.getByRole('heading', { name: /Your digest/ }).waitFor();
    await digest.getByText(title).first().waitFor();
    await snapshot(page, 'notifications-digest-mailbox');
  });
});
