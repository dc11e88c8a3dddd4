import type { TestForum } from '@forum/infra/testing';
import type { Locator, Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { chromiumMissing, chromiumMissingMessage, journeySteps, PHONE, setUpJourneys } from './support.ts';

/**
 * forum-web's keyboard and page-load details, in Debian's Chromium against the whole product: where
 * the focus is after a vote or a comment, the tag strip under Tab, the skip link and the navigation
 * bar's focus rings, and a page load with nothing the browser warns of or gives up on.
 */
if (chromiumMissing) console.warn(chromiumMissingMessage('e2e/forum-web-ux.e2e.test.ts'));

describe.skipIf(chromiumMissing)('forum-web by keyboard and on load, in Chromium', () => {
  const journey = setUpJourneys('forum-web-ux');
  const { tabTo, apiPost, signInBackAt, expectAccessible } = journeySteps(journey);
  let forum: TestForum;
  let page: Page;
  beforeEach(() => {
    ({ forum, page } = journey);
  });

  const hasFocus = (target: Locator) => target.evaluate((element) => element === element.ownerDocument.activeElement);

  it('#28.10 after a vote or a comment by keyboard the focus stays on the control', { timeout: 90_000 }, async () => {
    const [paul, kim] = await Promise.all([forum.newUser('Paul Keys'), forum.newUser('Kim Keyboard')]);
    const postId = await apiPost(paul, 'Focus after a click', ['Design']);
    await page.goto(`${forum.url}/post/${postId}`);
    await page.getByRole('link', { name: 'Join Us' }).click();
    await signInBackAt(kim, `/post/${postId}`);

    const votes = page.getByRole('group', { name: 'Vote on this post' });
    const like = votes.getByRole('button', { name: /^Like \d+$/ });
    await tabTo(like);
    await page.keyboard.press('Enter');
    await votes.getByRole('button', { name: 'Like 1', exact: true, pressed: true, disabled: false }).waitFor();
    expect(await hasFocus(like), 'the focus on Like after the vote').toBe(true);
    await page.keyboard.press('Space');
    await votes.getByRole('button', { name: 'Like 0', exact: true, pressed: false, disabled: false }).waitFor();
    expect(await hasFocus(like), 'the focus on Like after the vote is undone').toBe(true);

    const comments = page.getByRole('region', { name: 'Comments' });
    await comments.getByRole('textbox', { name: 'Write a comment' }).fill('Focus stays where I left it.');
    const post = comments.getByRole('button', { name: 'Post', exact: true });
    await tabTo(post);
    await page.keyboard.press('Enter');
    await comments.getByRole('list', { name: 'Comments' }).getByText('Focus stays where I left it.', { exact: true }).waitFor();
    await post.and(page.locator(':not([aria-disabled="true"])')).waitFor();
    expect(await hasFocus(post), 'the focus on Post after the comment').toBe(true);
    await expectAccessible('post after a vote and a comment by keyboard');
  });

  it('#28.11 Tab along the moving tag strip: each focused chip is in view', { timeout: 60_000 }, async () => {
    // the strip moves only for readers who do not ask for reduced motion; on a phone it is wider than the screen
    const context = await journey.browser.newContext({ viewport: PHONE, reducedMotion: 'no-preference' });
    const phone = await context.newPage();
    try {
      await phone.goto(`${forum.url}/`);
      const strip = phone.getByRole('navigation', { name: 'Browse by tag' });
      const chips = strip.getByRole('link');
      await chips.first().waitFor();
      const tags = await chips.allTextContents();
      expect(tags.length).toBeGreaterThan(3);
      // a reader arriving half way through the loop: the first chips have moved out to the left
      await phone.evaluate('document.getAnimations().forEach((animation) => (animation.currentTime = 10000))');
      for (let presses = 0; presses < 30 && !(await hasFocus(chips.first())); presses++) await phone.keyboard.press('Tab');
      for (const [index, tag] of tags.entries()) {
        if (index > 0) await phone.keyboard.press('Tab');
        const chip = chips.nth(index);
        expect(await hasFocus(chip), `${tag} focused`).toBe(true);
        // in view: inside the strip's visible box and the screen
        await expect
          .poll(() =>
            chip.evaluate((element) => {
              const box = element.getBoundingClientRect();
              const shown = element.closest('ul')!.parentElement!.getBoundingClientRect();
              return box.left >= Math.max(shown.left, 0) - 1 && box.right <= Math.min(shown.right, element.ownerDocument.defaultView!.innerWidth) + 1;
            }),
            { message: `${tag} in view`, timeout: 2000 },
          )
          .toBe(true);
      }
      // the pointer, meanwhile: the strip holds still under it and the chip clicked opens its tag
      await chips.nth(1).click();
      await phone.waitForURL((url) => url.pathname === `/tags/${encodeURIComponent(tags[1]!.slice(1))}`);
    } finally {
      await context.close();
    }
  });
});
