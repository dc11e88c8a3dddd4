import type { TestForum } from '@forum/infra/testing';
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chromiumMissing, chromiumMissingMessage, DESKTOP, isChangeStream, journeySteps, setUpJourneys } from './support.ts';

/**
 * forum-web, editing (docs/product.md "Editing"): an author fixes their post in Add Post's form
 * from My Posts; an admin's edit with a reason makes a revision (an author's edit within the grace
 * period folds into the revision before it, so it alone shows none); "edited <time>" opens the
 * revisions and the words that changed; an edit shows in a second browser without a reload. axe-core
 * finds no serious or critical violation on the edit page, the comment's edit dialog and the revisions.
 */
if (chromiumMissing) console.warn(chromiumMissingMessage('e2e/editing.e2e.test.ts'));

describe.skipIf(chromiumMissing)('forum-web, editing', () => {
  const journey = setUpJourneys('editing');
  const { expectAccessible, apiPost, readModelsReach, signInAt, toast } = journeySteps(journey);
  let forum: TestForum;
  let page: Page;
  let others: BrowserContext[] = [];
  beforeEach(() => {
    ({ forum, page } = journey);
    others = [];
  });
  afterEach(async () => {
    for (const context of others) await context.close();
  });

  /** PATCH through the API with `token`; once the read side has it. */
  async function apiEdit(token: string, path: string, json: object) {
    const answer = await forum.api(path, { method: 'PATCH', token, json });
    expect(answer.status).toBe(200);
    await readModelsReach(((await answer.json()) as { position: string }).position);
  }

  it('fix a typo and read the revision’s diff', { timeout: 150_000 }, async () => {
    const author = await forum.newUser('Tess Typo');
    const title = 'Zero-downtme deploys';
    const postId = await apiPost(author, title, ['DevOps']);

    // the author fixes the description from My Posts, in Add Post's form
    await signInAt(author, '/dashboard/my-post');
    await page.getByRole('link', { name: `Edit ${title}` }).click();
    await page.getByRole('heading', { name: 'Edit Post', level: 1 }).waitFor();
    const description = page.getByRole('textbox', { name: 'Post Description *' });
    expect(await description.inputValue()).toBe(`${title}: written through the API for the journey.`);
    await expectAccessible('the edit page');
    await description.fill(`${title}: written through the API for the journey, then fixed.`);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await toast('Your post has been updated.').waitFor();
    await page.waitForURL(`${forum.url}/post/${postId}`);
    await page.getByText('written through the API for the journey, then fixed.').waitFor();
    // within the grace period the author's edit folds into the first revision: no "edited" yet
    expect(await page.getByRole('button', { name: /^edited / }).count()).toBe(0);

    // an admin fixes the title's typo, with a reason: always a revision
    const admin = await forum.demoAdmin();
    await apiEdit(admin.token, `/api/posts/${postId}`, { title: 'Zero-downtime deploys', reason: 'Typo in the title' });
    await page.getByRole('heading', { name: 'Zero-downtime deploys', level: 1 }).waitFor();

    await page.getByRole('button', { name: /^edited / }).click();
    const dialog = page.getByRole('dialog', { name: 'Revisions of this post' });
    await dialog.getByRole('heading', { name: 'What changed in revision 2' }).waitFor();
    const revisions = dialog.getByRole('list', { name: 'Revisions' }).getByRole('listitem');
    expect(await revisions.count()).toBe(2);
    expect(await revisions.nth(0).innerText()).toMatch(/Revision 1 \(as written\), .+, by Tess Typo/);
    expect(await revisions.nth(1).innerText()).toMatch(/Revision 2, .+, by .+\s*Reason: Typo in the title/);
    // the word that changed, after the hidden word a screen reader says
    expect(await dialog.locator('del').allTextContents()).toEqual([' removed: downtme']);
    expect(await dialog.locator('ins').allTextContents()).toEqual([' added: downtime']);
    await dialog.getByRole('heading', { name: 'Description (unchanged)' }).waitFor();
    await expectAccessible('the revisions dialog');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('an edit seen live in a second browser', { timeout: 150_000 }, async () => {
    const author = await forum.newUser('Lina Live');
    const title = 'Edited while you read';
    const postId = await apiPost(author, title);
    const comment = await forum.api('/api/comments', { method: 'POST', token: author.token, json: { postId, text: 'A first thougth.' } });
    expect(comment.status).toBe(201);
    const { position } = (await comment.json()) as { position: string };
    await readModelsReach(position);

    // B, a visitor in another browser, reads the post
    const context = await journey.browser.newContext({ viewport: DESKTOP, reducedMotion: 'reduce' });
    others.push(context);
    const reader = await context.newPage();
    const streamOpen = reader.waitForResponse((response) => isChangeStream(response.url()) && response.url().includes(encodeURIComponent(`post:${postId}`)));
    await reader.goto(`${forum.url}/post/${postId}`);
    await reader.getByRole('heading', { name: title, level: 1 }).waitFor();
    await reader.getByText('A first thougth.').waitFor();
    await streamOpen;
    await reader.evaluate(() => ((globalThis as { __mark?: boolean }).__mark = true));

    // A, the author, edits their comment in its dialog, and the post through the API
    await signInAt(author, '/dashboard');
    await page.goto(`${forum.url}/post/${postId}`);
    await page.getByRole('list', { name: 'Comments' }).getByRole('button', { name: 'Edit', exact: true }).click();
    const edit = page.getByRole('dialog', { name: 'Edit your comment' });
    const text = edit.getByRole('textbox', { name: 'Comment' });
    expect(await text.inputValue()).toBe('A first thougth.');
    await expectAccessible('the comment edit dialog');
    await text.fill('A first thought.');
    await edit.getByRole('button', { name: 'Save' }).click();
    await toast('Your comment has been updated.').waitFor();
    await apiEdit(author.token, `/api/posts/${postId}`, { title: 'Edited while you read it' });

    // B sees both without a reload
    await reader.getByRole('heading', { name: 'Edited while you read it', level: 1 }).waitFor();
    await reader.getByText('A first thought.').waitFor();
    expect(await reader.evaluate(() => (globalThis as { __mark?: boolean }).__mark)).toBe(true);
  });
});
