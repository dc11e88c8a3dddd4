import type { TestForum } from '@forum/infra/testing';
import { COMMENT_PAGE_SIZE } from '@forum/contracts';
import type { Locator, Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { chromiumMissing, chromiumMissingMessage, DESKTOP, journeySteps, PHONE, setUpJourneys, snapshot } from './support.ts';

/**
 * Signed-in users' journeys through forum-web, in Debian's Chromium, against the whole product
 * on a free port: a free user writing up to the limit and buying Gold, voting on someone else's
 * post, commenting and reporting a comment, deleting an own post. Each journey is a new realm
 * account that signs in on the realm's own login page. axe-core finds no serious or critical
 * violation on any screen, and each journey does one of its key steps by keyboard alone.
 * (Signing out from the avatar menu is auth.e2e.test.ts's.)
 */
if (chromiumMissing) console.warn(chromiumMissingMessage('e2e/member.e2e.test.ts'));

describe.skipIf(chromiumMissing)('signed-in members of the forum, in Chromium', () => {
  const journey = setUpJourneys('member');
  const { expectAccessible, tabTo, readModelsReach, toast, apiPost, signInAt, signInBackAt } = journeySteps(journey);
  let forum: TestForum;
  let page: Page;
  beforeEach(() => {
    ({ forum, page } = journey);
  });

  it('a free user writes up to the limit of 5, buys Gold membership, then writes a 6th post', { timeout: 150_000 }, async () => {
    const fiona = await forum.newUser('Fiona Free');
    // the first three through the API, the rest through the form
    for (const n of [1, 2, 3]) await apiPost(fiona, `Fiona's post ${n}`);

    await signInAt(fiona, '/dashboard/add-post');
    await page.getByRole('heading', { name: 'Create New Post', level: 1 }).waitFor();
    await page.getByText('You have created 3 out of 5 posts.', { exact: true }).waitFor();
    expect(await page.getByText("You're approaching the limit for free users.").count()).toBe(0);
    await expectAccessible('add post');

    // the 4th post: its tag picked from the list with the arrow keys, the form sent with Tab and Enter
    const fourth = 'Keyboard-only layouts for forms';
    await page.getByRole('textbox', { name: 'Post Title *' }).fill(fourth);
    await page.getByRole('textbox', { name: 'Post Description *' }).fill('Every control of this form can be reached and used with the keyboard.');
    const tags = page.getByRole('combobox', { name: 'Tags (Select at least one)' });
    await tags.focus();
    await page.keyboard.type('Desi');
    await page.getByRole('option', { name: 'Design' }).waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: '#Design' }).waitFor();
    await snapshot(page, 'member-add-post');
    await tabTo(page.getByRole('button', { name: 'Create Post' }));
    await page.keyboard.press('Enter');

    await page.waitForURL((url) => url.pathname === '/dashboard/my-post');
    await toast('Your post has been created.').waitFor();
    const myPosts = page.getByRole('table', { name: 'My posts' });
    await myPosts.getByRole('link', { name: fourth, exact: true }).waitFor();
    await expectAccessible('my posts');

    // 4 of 5: the warning; the 5th post with the mouse, tags picked from the list
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Add Post' }).click();
    await page.getByText('You have created 4 out of 5 posts.', { exact: true }).waitFor();
    await page.getByText("You're approaching the limit for free users.", { exact: true }).waitFor();
    await expectAccessible('add post with the warning');
    const fifth = 'Fifth and last free post';
    await page.getByRole('textbox', { name: 'Post Title *' }).fill(fifth);
    await page.getByRole('textbox', { name: 'Post Description *' }).fill('The last one before the free limit.');
    await page.getByRole('combobox', { name: 'Tags (Select at least one)' }).click();
    await page.getByRole('option', { name: 'React' }).click();
    await page.getByRole('option', { name: 'JavaScript' }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Create Post' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard/my-post');
    await myPosts.getByRole('link', { name: fifth, exact: true }).waitFor();
    expect(await myPosts.getByRole('row').count()).toBe(1 + 5);

    // 5 of 5: the panel instead of the form
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Add Post' }).click();
    const limit = page.getByRole('region', { name: 'Post Limit Reached' });
    await limit.waitFor();
    expect(await page.getByRole('button', { name: 'Create Post' }).count()).toBe(0);
    await expectAccessible('post limit reached');
    await snapshot(page, 'member-post-limit');
    await limit.getByRole('link', { name: 'Become a Member' }).click();

    // the Membership page: Gold for $9.99, once
    await page.waitForURL((url) => url.pathname === '/membership');
    await page.getByRole('heading', { name: 'Upgrade to Premium', level: 1 }).waitFor();
    const card = page.getByRole('region', { name: 'Gold Membership' });
    await card.getByText('$9.99', { exact: true }).waitFor();
    await expectAccessible('membership');
    await card.getByRole('button', { name: 'Upgrade Now' }).click();
    await card.getByRole('button', { name: 'Processing...' }).waitFor();
    const success = page.getByRole('dialog', { name: 'Success!' });
    await success.getByText('You are now a premium member with Gold badge!', { exact: true }).waitFor({ timeout: 20_000 });
    await page.waitForURL((url) => url.pathname === '/dashboard');
    await expectAccessible('the success message over the dashboard');
    await success.getByRole('button', { name: 'OK' }).click();
    await success.waitFor({ state: 'detached' });

    // My Profile shows the Gold badge
    await page.getByRole('heading', { name: 'My Profile', level: 1 }).waitFor();
    await page.getByText('Gold', { exact: true }).waitFor();
    expect(await page.getByText('Bronze Member').count()).toBe(0);
    await expectAccessible('my profile as a member');
    await snapshot(page, 'member-gold-profile');

    // the Membership page knows
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Membership' }).click();
    const already = page.getByRole('button', { name: 'You are already a member' });
    await already.waitFor();
    expect(await already.isDisabled()).toBe(true);
    await page.getByText('You are enjoying premium benefits!', { exact: true }).waitFor();
    await expectAccessible('membership as a member');

    // no limit any more: a 6th post through the form
    await page.goto(`${forum.url}/dashboard/add-post`);
    await page.getByRole('textbox', { name: 'Post Title *' }).waitFor();
    expect(await page.getByText(/You have created \d+ out of 5 posts\./).count()).toBe(0);
    const sixth = 'Sixth post, as a Gold member';
    await page.getByRole('textbox', { name: 'Post Title *' }).fill(sixth);
    await page.getByRole('textbox', { name: 'Post Description *' }).fill('Beyond the free limit.');
    await page.getByRole('combobox', { name: 'Tags (Select at least one)' }).click();
    await page.getByRole('option', { name: 'Career' }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Create Post' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard/my-post');
    await myPosts.getByRole('link', { name: sixth, exact: true }).waitFor();
    expect(await myPosts.getByRole('row').count()).toBe(1 + 6);
  });

  it("likes, unlikes, dislikes and switches back to like on someone else's post; the counts follow", { timeout: 90_000 }, async () => {
    const [paul, vera] = await Promise.all([forum.newUser('Paul Poster'), forum.newUser('Vera Voter')]);
    const postId = await apiPost(paul, 'Tabs or spaces, once and for all', ['Off-topic']);

    // on the post, a visitor: Join Us, signed in on the realm, back on the post
    await page.goto(`${forum.url}/post/${postId}`);
    await page.getByRole('heading', { name: 'Tabs or spaces, once and for all', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Join Us' }).click();
    await signInBackAt(vera, `/post/${postId}`);

    const votes = page.getByRole('group', { name: 'Vote on this post' });
    const like = votes.getByRole('button', { name: /^Like \d+$/ });
    const dislike = votes.getByRole('button', { name: /^Dislike \d+$/ });
    /** Waits for the two buttons to read as given: their counts in the name, the reader's own vote as pressed. */
    const expectVotes = async (likes: number, liked: boolean, dislikes: number, disliked: boolean) => {
      await votes.getByRole('button', { name: `Like ${likes}`, exact: true, pressed: liked, disabled: false }).waitFor();
      await votes.getByRole('button', { name: `Dislike ${dislikes}`, exact: true, pressed: disliked, disabled: false }).waitFor();
    };
    await expectVotes(0, false, 0, false);
    await expectAccessible('post, signed in');

    // like, by keyboard
    await tabTo(like);
    await page.keyboard.press('Space');
    await expectVotes(1, true, 0, false);
    await snapshot(page, 'member-liked');
    // like again: undone
    await like.click();
    await expectVotes(0, false, 0, false);
    // dislike
    await dislike.click();
    await expectVotes(0, false, 1, true);
    // like while disliked: switches (+1 like, -1 dislike)
    await like.click();
    await expectVotes(1, true, 0, false);
    await expectAccessible('post, liked');

    // the server kept it
    await page.reload();
    await expectVotes(1, true, 0, false);
  });

  it('comments on a post, then reads and reports a comment on the comments page, once', { timeout: 90_000 }, async () => {
    const [paul, carl] = await Promise.all([forum.newUser('Paul Author'), forum.newUser('Carl Commenter')]);
    const postId = await apiPost(paul, 'Which database for a small forum?', ['Databases']);
    const paulsComment = 'Tell us what you tried already, and what went wrong with it.';
    const added = await forum.api('/api/comments', { method: 'POST', token: paul.token, json: { postId, text: paulsComment } });
    expect(added.status).toBe(201);
    await readModelsReach(((await added.json()) as { position: string }).position);

    await page.goto(`${forum.url}/post/${postId}`);
    await page.getByRole('link', { name: 'Join Us' }).click();
    await signInBackAt(carl, `/post/${postId}`);

    // the comment form: typed, then Tab to Post and Enter
    const comments = page.getByRole('region', { name: 'Comments' });
    const input = comments.getByRole('textbox', { name: 'Write a comment' });
    expect(await input.getAttribute('placeholder')).toBe('Write a comment...');
    await comments.getByRole('list', { name: 'Comments' }).getByText(paulsComment).waitFor();
    const mine = 'PostgreSQL has served us well for years.';
    await input.fill(mine);
    await tabTo(comments.getByRole('button', { name: 'Post', exact: true }));
    await page.keyboard.press('Enter');
    await comments.getByRole('list', { name: 'Comments' }).getByText(mine, { exact: true }).waitFor();
    expect(await input.inputValue()).toBe('');
    await page.getByRole('link', { name: '2 comments' }).waitFor();
    await expectAccessible('post with a new comment');
    await snapshot(page, 'member-commented');

    // the comments page
    await comments.getByRole('link', { name: 'View and report comments' }).click();
    await page.waitForURL((url) => url.pathname === `/post/${postId}/comments`);
    await page.getByRole('heading', { name: 'Post Comments', level: 1 }).waitFor();
    const table = page.getByRole('table', { name: 'Comments' });
    const row = table.getByRole('row').filter({ hasText: paul.name });
    await row.getByText(`${paulsComment.slice(0, 20)}...`).waitFor();
    expect(await table.getByRole('row').count()).toBe(1 + 2);
    await expectAccessible('comments page');

    // Read more: the whole comment
    await row.getByRole('button', { name: 'Read more' }).click();
    const full = page.getByRole('dialog', { name: `Comment by ${paul.name}` });
    await full.getByText(paulsComment, { exact: true }).waitFor();
    await full.getByText(/^Posted on /).waitFor();
    await expectAccessible('read more');
    await full.getByRole('button', { name: 'Close' }).click();
    await full.waitFor({ state: 'detached' });

    // Report waits for a feedback
    const report = row.getByRole('button', { name: 'Report' });
    expect(await report.isDisabled()).toBe(true);
    const feedback = row.getByRole('combobox', { name: `Feedback on the comment by ${paul.name}` });
    expect(await feedback.textContent()).toBe('Select Feedback');
    await feedback.click();
    await page.getByRole('option', { name: 'This is spam' }).click();
    expect(await report.isEnabled()).toBe(true);
    await snapshot(page, 'member-report-chosen');
    await report.click();
    await toast('Reported! Your report has been submitted').waitFor();
    await row.getByText('Reported', { exact: true }).waitFor();
    expect(await row.getByRole('combobox').count()).toBe(0);
    await expectAccessible('comments page after a report');

    // #28.5 after a reload the page knows the comment was reported: no second report is offered;
    // #28.2 the reader's own comment is not offered for a report at all
    await page.reload();
    await row.getByText('Reported', { exact: true }).waitFor();
    expect(await row.getByRole('combobox').count()).toBe(0);
    expect(await row.getByRole('button', { name: 'Report' }).count()).toBe(0);
    const own = table.getByRole('row').filter({ hasText: carl.name });
    await own.getByText('Your comment', { exact: true }).waitFor();
    expect(await own.getByRole('button', { name: 'Report' }).count()).toBe(0);
  });

  it('reads a long discussion a page at a time, on the post and on the comments page, with the keyboard', { timeout: 120_000 }, async () => {
    const people = await Promise.all(['Ana', 'Ben', 'Cleo', 'Dev', 'Eli'].map((name) => forum.newUser(`${name} Talker`)));
    const postId = await apiPost(people[0]!, 'A long discussion');
    const count = COMMENT_PAGE_SIZE + 5;
    let position = '';
    for (let i = 1; i <= count; i++) {
      const added = await forum.api('/api/comments', { method: 'POST', token: people[i % people.length]!.token, json: { postId, text: `Reply number ${i}` } });
      expect(added.status).toBe(201);
      position = ((await added.json()) as { position: string }).position;
    }
    await readModelsReach(position);
    const replies = (list: Locator) => list.getByText(/^Reply number \d+$/).allTextContents();

    // a visitor on the post: the newest page first
    await page.goto(`${forum.url}/post/${postId}`);
    const comments = page.getByRole('region', { name: 'Comments' });
    const list = comments.getByRole('list', { name: 'Comments' });
    await list.getByText(`Reply number ${count}`, { exact: true }).waitFor();
    expect(await replies(list)).toEqual(Array.from({ length: COMMENT_PAGE_SIZE }, (_, i) => `Reply number ${count - i}`));
    const status = comments.getByRole('status');
    expect(await status.textContent()).toBe(`Showing ${COMMENT_PAGE_SIZE} of ${count} comments`);
    await expectAccessible('post with more comments to show');
    await snapshot(page, 'post-show-more-comments');

    // Show more comments, by keyboard: the older ones below, and the focus on the status once all are there
    await tabTo(comments.getByRole('button', { name: 'Show more comments' }), 80);
    await page.keyboard.press('Enter');
    await list.getByText('Reply number 1', { exact: true }).waitFor();
    expect(await replies(list)).toEqual(Array.from({ length: count }, (_, i) => `Reply number ${count - i}`));
    expect(await status.textContent()).toBe(`Showing all ${count} comments`);
    expect(await status.evaluate((element) => element === element.ownerDocument.activeElement)).toBe(true);
    expect(await comments.getByRole('button', { name: 'Show more comments' }).count()).toBe(0);
    await expectAccessible('post with all its comments');

    // the comments page, signed in: a page of rows, then the rest
    await signInAt(people[1]!, `/post/${postId}/comments`);
    const table = page.getByRole('table', { name: 'Comments' });
    await table.getByText(`Reply number ${count}`, { exact: true }).waitFor();
    expect(await table.getByRole('row').count()).toBe(1 + COMMENT_PAGE_SIZE);
    await page.getByRole('button', { name: 'Show more comments' }).click();
    await table.getByText('Reply number 1', { exact: true }).waitFor();
    expect(await table.getByRole('row').count()).toBe(1 + count);
    await expectAccessible('comments page with all comments');
    await page.setViewportSize(PHONE);
    await snapshot(page, 'post-comments-all-phone');
  });

  it("#28.16 the comments table breaks a commenter's email only before its '@', never mid-word, at desktop and phone width", { timeout: 90_000 }, async () => {
    const [author, writer] = await Promise.all([forum.newUser('Paula Poster'), forum.newUser('Maximiliana Longname-Commenter')]);
    const postId = await apiPost(author, 'Emails in a narrow column');
    const text = 'A comment long enough to take the room of the table, so that the Commenter column is as narrow as the table lets it be. '.repeat(2);
    const added = await forum.api('/api/comments', { method: 'POST', token: writer.token, json: { postId, text } });
    expect(added.status).toBe(201);
    await readModelsReach(((await added.json()) as { position: string }).position);

    // the writer reads their own comment: their email is shown to them
    await signInAt(writer, `/post/${postId}/comments`);
    const email = page.getByRole('table', { name: 'Comments' }).getByText(writer.email, { exact: true });
    await email.waitFor();
    /** Where the email's text wraps: the two characters around each line break, from the characters' boxes. */
    const breaks = () =>
      email.evaluate((element) => {
        const walker = element.ownerDocument.createTreeWalker(element, 4 /* NodeFilter.SHOW_TEXT */);
        const boxes: { char: string; top: number }[] = [];
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          for (let i = 0; i < node.textContent!.length; i++) {
            const range = element.ownerDocument.createRange();
            range.setStart(node, i);
            range.setEnd(node, i + 1);
            const box = range.getClientRects()[0];
            if (box) boxes.push({ char: node.textContent![i]!, top: Math.round(box.top) });
          }
        }
        return boxes.slice(1).flatMap((box, i) => (box.top > boxes[i]!.top ? [`${boxes[i]!.char}|${box.char}`] : []));
      });
    for (const viewport of [DESKTOP, { width: 760, height: 900 }, PHONE]) {
      await page.setViewportSize(viewport);
      const wrapped = await breaks();
      expect(
        wrapped.every((at) => at.endsWith('|@')),
        `${viewport.width} px: ${wrapped.join(', ')}`,
      ).toBe(true);
      // and the page itself never scrolls sideways
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${viewport.width} px`).toBe(true);
      await snapshot(page, `post-comments-email-${viewport.width}`);
    }
    await expectAccessible('comments page, own comment');
  });

  it('deletes an own post from My Posts after confirming', { timeout: 90_000 }, async () => {
    const dora = await forum.newUser('Dora Deleter');
    const kept = "Notes from this year's meetup";
    const doomed = 'A post written in haste';
    await apiPost(dora, kept);
    await apiPost(dora, doomed);

    await signInAt(dora, '/dashboard/my-post');
    const myPosts = page.getByRole('table', { name: 'My posts' });
    await myPosts.getByRole('link', { name: doomed, exact: true }).waitFor();
    await myPosts.getByRole('link', { name: kept, exact: true }).waitFor();
    await expectAccessible('my posts');

    // by keyboard: Tab to Delete, Enter; the confirming answer has the focus
    await tabTo(myPosts.getByRole('button', { name: `Delete ${doomed}` }));
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('dialog', { name: 'Are you sure?' });
    await confirm.getByText("You won't be able to revert this!", { exact: true }).waitFor();
    await confirm.getByRole('button', { name: 'Yes, delete it!' }).waitFor();
    await expectAccessible('delete confirmation');
    await snapshot(page, 'member-delete-confirm');
    await page.keyboard.press('Enter');

    const deleted = page.getByRole('dialog', { name: 'Deleted!' });
    await deleted.getByText('Your post has been deleted.', { exact: true }).waitFor();
    await expectAccessible('deleted');
    await deleted.getByRole('button', { name: 'OK' }).click();
    await deleted.waitFor({ state: 'detached' });
    await myPosts.getByRole('link', { name: doomed, exact: true }).waitFor({ state: 'detached' });
    await myPosts.getByRole('link', { name: kept, exact: true }).waitFor();
    expect(await myPosts.getByRole('row').count()).toBe(1 + 1);
  });
});
