import { XSS_VECTORS } from '@forum/contracts/markdown/xss-corpus';
import { DEMO_PASSWORD } from '@forum/infra/embedded';
import type { NewUser } from '@forum/infra/testing';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, chromiumMissing, chromiumMissingMessage, journeySteps, PHONE, setUpJourneys, signInAtRealm, snapshot } from './support.ts';

/**
 * Markdown in the browser (issue #41 item 2): the XSS corpus (contracts' XSS_VECTORS) stored through
 * the API as a post's description, a comment and an announcement, and shown on every page that shows
 * them under the forum's CSP: no script runs, no dialog opens, no `javascript:`, `vbscript:` or
 * `data:` address and no inline handler is in the page, and the browser reports no CSP violation
 * (setUpJourneys checks that after each test). Then a member writes a post in Markdown with the
 * editor's preview, and the post page shows it formatted and its code highlighted; axe on each screen.
 */
if (chromiumMissing) console.warn(chromiumMissingMessage('e2e/markdown.e2e.test.ts'));

const CORPUS = XSS_VECTORS.map((vector) => vector.source).join('\n\n');
/** A line of the corpus every page that renders it shows as text ('script tag in a paragraph'). */
const SHOWN = 'hello <script>window.__xss=1</script> world';

/** What would tell that a vector ran or left something that could: empty when none. */
async function traces(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    if ((window as unknown as { __xss?: unknown }).__xss !== undefined) found.push('window.__xss was set');
    for (const element of document.querySelectorAll('*')) {
      for (const attribute of element.attributes) {
        if (/^on/i.test(attribute.name)) found.push(`${element.tagName} has ${attribute.name}`);
        if (/^(href|src|action|formaction|xlink:href|data|srcdoc)$/i.test(attribute.name) && /^\s*(javascript|vbscript|data):/i.test(attribute.value)) {
          found.push(`${element.tagName} ${attribute.name}=${attribute.value}`);
        }
      }
    }
    for (const tag of ['iframe', 'object', 'embed']) if (document.querySelector(tag)) found.push(`an ${tag}`);
    return found;
  });
}

describe.skipIf(chromiumMissing)('Markdown in Chromium under the CSP', () => {
  const journey = setUpJourneys('markdown');
  const { expectAccessible, readModelsReach, signInAt } = journeySteps(journey);

  const command = async (member: Pick<NewUser, 'token'>, path: string, json: unknown) => {
    const response = await journey.forum.api(path, { method: 'POST', token: member.token, json });
    expect(response.status, path).toBeLessThan(300);
    return (await response.json()) as { id: string; position: string };
  };

  it('the XSS corpus, stored as a post, a comment and an announcement, runs nowhere it shows', { timeout: 240_000 }, async () => {
    const { forum, page } = journey;
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const [author, reader] = await Promise.all([forum.newUser('Xavier Vectors'), forum.newUser('Rita Reader')]);
    const title = `XSS corpus ${Date.now()}`;
    const post = await command(author, '/api/posts', { title, description: `heron\n\n${CORPUS}`, tags: ['Career'] });
    const comment = await command(author, '/api/comments', { postId: post.id, text: CORPUS });
    const admin = await forum.demoAdmin();
    await command(admin, '/api/admin/announcements', { title: 'Corpus announcement', description: CORPUS });
    const report = await command(reader, `/api/comments/${comment.id}/report`, { feedback: 'spam' });
    await readModelsReach(report.position);

    const checked: Record<string, string[]> = {};
    const check = async (screen: string) => {
      checked[screen] = await traces(page);
    };

    // a visitor: the home page (the announcement rendered, the post's card), the post page, a search
    await page.goto(`${forum.url}/`);
    await page.getByRole('heading', { name: 'Corpus announcement' }).waitFor();
    await page.getByText(SHOWN).first().waitFor();
    // the sign-in check has answered (its own hidden frame, keycloak-js's, is gone)
    await page.getByRole('link', { name: 'Join Us' }).waitFor();
    await check('home');
    await page.goto(`${forum.url}/post/${post.id}`);
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();
    await expect.poll(() => page.getByText(SHOWN).count()).toBe(2); // the description and the comment
    await check('post page');
    await page.goto(`${forum.url}/search?q=heron`);
    await page.getByRole('link', { name: title }).waitFor();
    await check('search');

    // a member: the bell's announcement, the comments page and its Read more
    await signInAt(reader, `/post/${post.id}/comments`);
    await page.getByRole('heading', { name: 'Post Comments', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Read more' }).click();
    await page.getByRole('dialog').getByText(SHOWN).waitFor();
    await check('comments page, read more');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: /^Notifications/ }).click();
    await page
      .getByRole('heading', { name: 'Notifications' })
      .or(page.getByRole('list', { name: 'Notifications' }))
      .first()
      .waitFor();
    await check('bell');

    // the console: the reported comment's plain text
    const console_ = await journey.browser.newContext();
    try {
      const adminPage = await console_.newPage();
      adminPage.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      await adminPage.goto(`${forum.url}/admin/reported-comments`);
      await signInAtRealm(adminPage, ADMIN_EMAIL, DEMO_PASSWORD);
      await adminPage.waitForURL((url) => url.pathname === '/admin/reported-comments');
      await adminPage.getByRole('row').filter({ hasText: 'Rita Reader' }).first().waitFor();
      checked['console, reported comments'] = await traces(adminPage);
    } finally {
      await console_.close();
    }

    expect(checked).toEqual({
      home: [],
      'post page': [],
      search: [],
      'comments page, read more': [],
      bell: [],
      'console, reported comments': [],
    });
    expect(dialogs).toEqual([]);
  });

  it('a member writes Markdown with the preview and a code block; the post shows it formatted and highlighted', { timeout: 180_000 }, async () => {
    const { forum, page } = journey;
    const member = await forum.newUser('Mae Markdown');
    await signInAt(member, '/dashboard/add-post');
    await page.getByRole('heading', { name: 'Create New Post', level: 1 }).waitFor();
    const title = 'Sorting in TypeScript';
    await page.getByRole('textbox', { name: 'Post Title *' }).fill(title);
    const description = page.getByRole('textbox', { name: 'Post Description *' });
    await description.fill('# How I sort\n\nSorting is ');
    // the toolbar's Bold from the keyboard: Ctrl+B, then the word typed over its placeholder
    await description.press('End');
    await page.keyboard.press('Control+b');
    await page.keyboard.type('easy');
    await description.press('Control+End');
    await page.keyboard.type(
      ' with [the docs](https://developer.mozilla.org/).\n\n- numbers\n- strings\n\n```ts\nconst sorted = [3, 1, 2].sort((a, b) => a - b);\n```',
    );
    expect(await description.inputValue()).toContain('Sorting is **easy** with [the docs]');
    const tags = page.getByRole('combobox', { name: 'Tags (Select at least one)' });
    await tags.fill('Car');
    await page.getByRole('option', { name: 'Career' }).click();
    await page.keyboard.press('Escape');
    await expectAccessible('add post, write');
    await snapshot(page, 'markdown-editor-write-desktop');

    await page.getByRole('tab', { name: 'Preview' }).click();
    const preview = page.getByRole('tabpanel', { name: 'Preview' });
    await preview.getByRole('heading', { name: 'How I sort', level: 3 }).waitFor();
    expect(await preview.locator('strong').textContent()).toBe('easy');
    expect(await preview.getByRole('listitem').allTextContents()).toEqual(['numbers', 'strings']);
    expect(await preview.getByRole('link', { name: 'the docs' }).getAttribute('rel')).toBe('nofollow ugc noopener noreferrer');
    await preview.locator('pre[data-highlighted="true"] .hljs-keyword').first().waitFor();
    await expectAccessible('add post, preview');
    await snapshot(page, 'markdown-editor-preview-desktop');
    await page.setViewportSize(PHONE);
    await snapshot(page, 'markdown-editor-preview-phone');
    await page.getByRole('tab', { name: 'Write' }).click();
    await snapshot(page, 'markdown-editor-write-phone');
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.getByRole('button', { name: 'Create Post' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard/my-post');
    await page.getByRole('table', { name: 'My posts' }).getByRole('link', { name: title, exact: true }).click();
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();
    const article = page.getByRole('article').first();
    await article.getByRole('heading', { name: 'How I sort', level: 3 }).waitFor();
    expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
    expect(await article.locator('strong').first().textContent()).toBe('easy');
    const code = article.locator('pre[data-highlighted="true"]');
    await code.locator('.hljs-keyword').first().waitFor();
    expect(await code.textContent()).toBe('const sorted = [3, 1, 2].sort((a, b) => a - b);');
    await expectAccessible('post page, formatted');
    await snapshot(page, 'markdown-post-formatted-desktop');
    await page.setViewportSize(PHONE);
    await snapshot(page, 'markdown-post-formatted-phone');
  });
});
