/**
 * Regenerates the screenshots of forum-web's main screens that the tour (docs/tour.md) shows, at
 * desktop (1280×800) and phone (390×844) widths: `npm run screenshots` (tsx e2e/screenshots.ts).
 *
 * One forum (startTestForum: the whole product on a free port with the demo data, on a
 * PostgreSQL of its own in a temporary folder), one Chromium (Debian's, e2e/support.ts). A few
 * votes, comments and an announcement are added through the API first so the screens have
 * something to show; the signed-in screens are alice's, signed in on the realm's login page.
 *
 *   npx tsx e2e/screenshots.ts [outDir]     (or SCREENSHOTS_DIR=…; default docs/screenshots)
 *   FORUM_WEB_DIR=/tmp/dist npx tsx e2e/screenshots.ts     (against another build of forum-web)
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEMO_PASSWORD } from '@forum/infra/embedded';
import { startEmbeddedPostgres } from '@forum/platform/embedded-postgres';
import { startTestForum, type TestForum } from '@forum/infra/testing';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_EMAIL, CHROMIUM, chromiumMissing, DESKTOP, launchChromium, PHONE, requestsSettled, signInAtRealm, takeCspViolations } from './support.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.resolve(process.argv[2] ?? process.env.SCREENSHOTS_DIR ?? path.join(root, 'docs/screenshots'));
/** Whom the signed-in screens belong to (a free user with 3 demo posts). */
const USER = { email: 'alice@forum.local', name: 'Alice Martin' };
/** Long pages are cut at this many screen heights: enough to read, small enough for a page of the docs. */
const MAX_SCREENS = 1.5;

type Width = 'desktop' | 'phone';
const VIEWPORTS: Record<Width, { width: number; height: number }> = { desktop: DESKTOP, phone: PHONE };

interface Demo {
  /** bob's 'How do you structure a large React app?', with the comments */
  reactPostId: string;
  /** alice's forum id: her history holds her votes, comment and report */
  aliceId: string;
}

const started = Date.now();
const seconds = () => ((Date.now() - started) / 1000).toFixed(1);
const log = (line: string) => console.log(`[${seconds().padStart(5)} s] ${line}`);

async function main() {
  if (chromiumMissing) throw new Error(`Debian chromium (${CHROMIUM}) is not installed (apt-get install -y chromium)`);
  const webDir = process.env.FORUM_WEB_DIR ? path.resolve(process.env.FORUM_WEB_DIR) : path.join(root, 'forum-web/dist');
  if (!existsSync(path.join(webDir, 'index.html'))) throw new Error(`forum-web is not built in ${webDir}: run "npm run build:web" first`);
  await mkdir(outDir, { recursive: true });

  // startTestForum makes its database on "the run's PostgreSQL": outside vitest, this one
  const pgDir = await mkdtemp(path.join(os.tmpdir(), 'forum-screenshots-pg-'));
  let postgres: Awaited<ReturnType<typeof startEmbeddedPostgres>> | undefined;
  let forum: TestForum | undefined;
  let browser: Browser | undefined;
  // Ctrl-C: closing the browser fails the shot under way, and the finally below cleans up
  process.once('SIGINT', () => {
    console.error('interrupted: stopping');
    void browser?.close();
  });
  try {
    const [pg, chromium] = await Promise.allSettled([startEmbeddedPostgres({ dataDir: pgDir, database: 'postgres', fast: true }), launchChromium()]);
    if (pg.status === 'fulfilled') postgres = pg.value;
    if (chromium.status === 'fulfilled') browser = chromium.value;
    if (pg.status === 'rejected') throw pg.reason;
    if (chromium.status === 'rejected') throw chromium.reason;
    process.env.FORUM_TEST_PG_ADMIN_URL = pg.value.urlFor('postgres');
    process.env.FORUM_TEST_PG_URL_TEMPLATE = pg.value.urlFor('__DB__');
    forum = await startTestForum();
    log(`forum on ${forum.url} (forum-web from ${webDir})`);
    const demo = await addDemoActivity(forum);
    log('votes, comments and an announcement added');

    for (const width of ['desktop', 'phone'] as const) await captureAt(chromium.value, forum, demo, width);
    for (const width of ['desktop', 'phone'] as const) await captureConsole(chromium.value, forum, demo, width);
    // every screen was shown under the gateway's CSP: none of them may have had something refused
    const violations = takeCspViolations(chromium.value);
    if (violations.length > 0) throw new Error(`CSP violations on the screens:\n${violations.join('\n')}`);
    const shown = path.relative(process.cwd(), outDir);
    log(`done: screenshots in ${shown.startsWith('..') ? outDir : shown || '.'}`);
  } finally {
    await browser?.close();
    await forum?.stop();
    await postgres?.stop();
    await rm(pgDir, { recursive: true, force: true });
  }
}

/** What the seed lacks for the screens to read well: votes (the leaderboard), comments, an announcement. */
async function addDemoActivity(forum: TestForum): Promise<Demo> {
  const [alice, bob, admin] = await Promise.all([forum.tokenFor('alice@forum.local'), forum.tokenFor('bob@forum.local'), forum.tokenFor(ADMIN_EMAIL)]);
  // the demo posts' authors, registered with the forum as the apps register them after sign-in
  for (const token of [alice, bob, admin]) await forum.register(token);

  const list = await forum.call<{ posts: { _id: string; title: string }[]; totalCount: number }>('GET', '/api/posts?page=1&sort=newest');
  const all = [...list.posts];
  for (let page = 2; all.length < list.totalCount; page++) {
    const next = await forum.call<typeof list>('GET', `/api/posts?page=${page}&sort=newest`);
    if (next.posts.length === 0) break;
    all.push(...next.posts);
  }
  const idOf = (title: string) => {
    const post = all.find((p) => p.title === title);
    if (!post) throw new Error(`demo post "${title}" not found`);
    return post._id;
  };
  const react = idOf('How do you structure a large React app?');
  const welcome = idOf('Welcome to the forum!');
  const postgresPost = idOf('PostgreSQL indexes for paginated lists');
  const node = idOf('Node.js 20 vs 22 in production');
  const design = idOf('Moving from design to front-end development');

  let position: string | undefined;
  const write = async (method: 'PUT' | 'POST', path: string, token: string | undefined, body: unknown) => {
    const answer = await forum.call<{ id?: string; position?: string }>(method, path, { token, body, expect: method === 'POST' ? 201 : 200 });
    if (answer.position) position = answer.position;
    return answer.id;
  };
  const votes: [string, string, 'up' | 'down'][] = [
    [alice, react, 'up'],
    [admin, react, 'up'],
    [bob, welcome, 'up'],
    [admin, welcome, 'up'],
    [bob, postgresPost, 'up'],
    [admin, postgresPost, 'up'],
    [alice, node, 'up'],
    [bob, design, 'up'],
    [admin, node, 'down'],
  ];
  for (const [token, postId, vote] of votes) await write('PUT', `/api/posts/${postId}/vote`, token, { vote });
  const comments: [string, string][] = [
    [alice, 'We group by feature: each folder has its components, hooks and API calls, and only its index.ts is imported from outside.'],
    [admin, 'Same here. A lint rule that forbids deep imports keeps the boundaries honest.'],
    [bob, 'Thanks both! We will try feature folders in the next sprint.'],
  ];
  const commentIds: (string | undefined)[] = [];
  for (const [token, text] of comments) commentIds.push(await write('POST', '/api/comments', token, { postId: react, text }));
  // for the moderators' queue: bob's comment reported twice, alice's once
  const reports: [string, string | undefined, string][] = [
    [alice, commentIds[2], 'spam'],
    [admin, commentIds[2], 'offensive'],
    [bob, commentIds[0], 'inappropriate'],
  ];
  for (const [token, commentId, feedback] of reports) await write('POST', `/api/comments/${commentId}/report`, token, { feedback });
  await write('POST', '/api/contact', undefined, {
    name: 'Dana Reader',
    email: 'dana@example.test',
    message: 'Could the forum host a study group for our evening class? We are about twelve people.',
  });
  await write('POST', '/api/admin/announcements', admin, {
    title: 'New: Gold membership',
    description: 'Post without limits and support the forum with a one-time upgrade.',
  });

  // the read side has caught up with the last write
  for (let tries = 0; ; tries++) {
    const response = await forum.api('/api/announcements', { headers: { 'X-Min-Position': position ?? '0' } });
    if (response.ok) break;
    if (tries > 100) throw new Error(`the read side did not catch up: ${response.status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const aliceId = (await forum.call<{ _id: string }>('GET', '/api/me', { token: alice }))._id;
  return { reactPostId: react, aliceId };
}

async function captureAt(browser: Browser, forum: TestForum, demo: Demo, width: Width) {
  const viewport = VIEWPORTS[width];
  // reduced motion: the tag strip stands still
  const context = await browser.newContext({ viewport, reducedMotion: 'reduce' });
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  const at = (route: string) => page.goto(`${forum.url}${route}`);

  /** A shot of the page from the top: the viewport, or up to MAX_SCREENS screens of a longer page. */
  const shot = async (name: string, options: { viewportOnly?: boolean } = {}) => {
    await settle(page);
    const file = path.join(outDir, `${name}-${width}.png`);
    if (options.viewportOnly) {
      await page.screenshot({ path: file, animations: 'disabled' });
    } else {
      const pageHeight = await page.evaluate(() => document.documentElement.scrollHeight);
      const height = Math.min(pageHeight, Math.round(viewport.height * MAX_SCREENS));
      await page.screenshot({ path: file, fullPage: true, clip: { x: 0, y: 0, width: viewport.width, height }, animations: 'disabled' });
    }
    log(`${path.basename(file)}`);
  };

  try {
    // ── as a visitor ──
    await at('/');
    await page.getByRole('heading', { name: 'Welcome to the Forum', level: 1 }).waitFor();
    await page.getByRole('article').nth(4).waitFor();
    await page.getByRole('region', { name: 'Announcements' }).getByRole('heading', { name: 'New: Gold membership' }).waitFor();
    await page.getByText(/^Page 1 \/ \d+$/).waitFor();
    await shot('home');

    await page.getByRole('button', { name: 'Notifications, 1 new' }).click();
    await page.getByRole('dialog', { name: 'Notifications' }).getByText('New: Gold membership (new)').waitFor();
    await shot('notifications', { viewportOnly: true });
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Notifications' }).waitFor({ state: 'hidden' });

    if (width === 'phone') {
      await page.getByRole('button', { name: 'Open navigation menu' }).click();
      await page.getByRole('menu').getByRole('menuitem', { name: 'Contact' }).waitFor();
      await shot('menu', { viewportOnly: true });
      await page.keyboard.press('Escape');
      await page.getByRole('menu').waitFor({ state: 'hidden' });
    }

    // a tag with two posts fills the two columns
    await at('/tags/DevOps');
    await page.getByRole('heading', { name: 'Posts Tagged with: #DevOps' }).waitFor();
    await page.getByRole('heading', { name: 'Zero-downtime deploys with a single server' }).waitFor();
    await page.getByRole('heading', { name: 'Node.js 20 vs 22 in production' }).waitFor();
    await shot('tag');

    // a search by words of the descriptions, the matched words marked in the snippets
    await at('/search?q=index%20or%20migrations');
    await page.getByRole('heading', { name: 'Search results for “index or migrations”' }).waitFor();
    await page.getByRole('link', { name: 'Zero-downtime deploys with a single server' }).waitFor();
    await shot('search');

    await at('/contact');
    await page.getByRole('heading', { name: 'Contact us' }).waitFor();
    await shot('contact');

    await at('/no/such/page');
    await page.getByRole('link', { name: 'Back to Home' }).waitFor();
    await shot('not-found');

    // ── the realm's pages: sign in, register, forgot password and the mail it sends ──
    await at('/joinUs');
    await page.getByRole('heading', { name: 'Sign in to your account' }).waitFor();
    await shot('realm-sign-in');
    await page.getByRole('main').getByRole('link', { name: 'Register', exact: true }).click();
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
    await shot('realm-register');
    await page.goBack();
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
    await shot('realm-forgot-password');
    await page.getByLabel('Email').fill(USER.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    await at('/realms/forum/mailbox');
    await page.getByRole('heading', { name: 'Mailbox' }).waitFor();
    await shot('mailbox');

    // ── signed in, on the realm's own login page ──
    await at('/joinUs');
    await signInAtRealm(page, USER.email, DEMO_PASSWORD);
    await page.waitForURL((url) => url.origin === forum.url && url.pathname === '/' && url.hash === '');
    await page.getByRole('button', { name: USER.name }).waitFor();
    // the 'Login Successfully' toast would sit on every shot for 5 s: close it
    const toast = page.getByRole('alert').filter({ hasText: 'Login Successfully' });
    await toast.waitFor();
    await toast.getByRole('button', { name: 'Close' }).click();
    await toast.waitFor({ state: 'hidden' });

    await at(`/post/${demo.reactPostId}`);
    await page.getByRole('heading', { name: 'How do you structure a large React app?', level: 1 }).waitFor();
    await page.getByRole('list', { name: 'Comments' }).getByRole('listitem').nth(2).waitFor();
    await page.getByPlaceholder('Write a comment...').waitFor();
    await shot('post');

    await at(`/post/${demo.reactPostId}/comments`);
    await page.getByRole('heading', { name: 'Post Comments' }).waitFor();
    await page.getByRole('table', { name: 'Comments' }).getByText('Bob Chen').waitFor();
    await shot('post-comments');

    await at('/leaderboard');
    await page.getByRole('list', { name: 'Top-voted users' }).getByRole('listitem').first().waitFor();
    await page
      .getByText(/\d+ votes?/)
      .first()
      .waitFor();
    await shot('leaderboard');

    await at('/membership');
    await page.getByRole('heading', { name: 'Upgrade to Premium' }).waitFor();
    await page.getByRole('button', { name: 'Upgrade Now' }).waitFor();
    await shot('membership');

    await at('/dashboard');
    await page.getByRole('heading', { name: 'My Profile' }).waitFor();
    await page.getByRole('heading', { name: USER.name }).waitFor();
    await page.getByRole('heading', { name: 'Recent posts' }).waitFor();
    await shot('dashboard-profile');

    await at('/dashboard/add-post');
    const form = page.getByRole('form', { name: 'New post' });
    await form.waitFor();
    await form.getByLabel('Post Title').fill('Which VS Code extensions do you use every day?');
    const description = form.getByLabel('Post Description');
    await description.fill('I am setting up a new laptop and want to keep it lean. Which extensions would you install first, and why?');
    await description.blur();
    await shot('dashboard-add-post');

    await at('/dashboard/my-post');
    await page.getByRole('heading', { name: 'My Posts' }).waitFor();
    await page.getByRole('link', { name: 'View Welcome to the forum!' }).waitFor();
    await shot('dashboard-my-posts');

    // a sign-out link that the forum did not make (no id_token_hint) asks first
    await at('/realms/forum/protocol/openid-connect/logout');
    await page.getByRole('heading', { name: 'Sign out' }).waitFor();
    await shot('signout');
  } catch (error) {
    const file = path.join(outDir, `failed-${width}.png`);
    await page.screenshot({ path: file }).catch(() => {});
    console.error(`failed at ${page.url()} (${width}); the page is in ${file}`);
    throw error;
  } finally {
    await context.close();
  }
  if (pageErrors.length > 0) console.warn(`uncaught errors in the page (${width}):\n  ${pageErrors.join('\n  ')}`);
}

/** The admin console (admin-web), signed in as the demo admin. */
async function captureConsole(browser: Browser, forum: TestForum, demo: Demo, width: Width) {
  const viewport = VIEWPORTS[width];
  const context = await browser.newContext({ viewport, reducedMotion: 'reduce' });
  const page = await context.newPage();
  const at = (route: string) => page.goto(`${forum.url}${route}`);
  const shot = async (name: string) => {
    await settle(page);
    const file = path.join(outDir, `${name}-${width}.png`);
    const pageHeight = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.screenshot({
      path: file,
      fullPage: true,
      clip: { x: 0, y: 0, width: viewport.width, height: Math.min(pageHeight, Math.round(viewport.height * MAX_SCREENS)) },
      animations: 'disabled',
    });
    log(path.basename(file));
  };
  try {
    await at('/admin');
    await signInAtRealm(page, ADMIN_EMAIL, DEMO_PASSWORD);
    await page.getByRole('heading', { name: 'Admin Profile', level: 1 }).waitFor();
    await page.getByRole('region', { name: 'Admin card' }).waitFor();
    await page.getByText('#React', { exact: true }).waitFor();
    await page.locator('.MuiChartsSurface-root').first().waitFor();
    await shot('admin-dashboard');

    await at('/admin/manage-users');
    await page.getByText('alice@forum.local', { exact: true }).waitFor();
    await shot('admin-manage-users');

    await at('/admin/reported-comments');
    await page.getByText('Thanks both! We will try feature folders in the next sprint.').waitFor();
    await shot('admin-reported-comments');

    await at('/admin/make-announcement');
    await page.getByRole('button', { name: 'Post Announcement' }).waitFor();
    await shot('admin-make-announcement');

    await at('/admin/audit');
    await page.getByText('New: Gold membership', { exact: false }).first().waitFor();
    await shot('admin-staff-actions');

    await at(`/admin/history/post/${demo.reactPostId}`);
    await page.getByText('PostCreated').first().waitFor();
    await shot('admin-history');

    await at(`/admin/history/user/${encodeURIComponent(demo.aliceId)}`);
    await page.getByText('CommentReported').first().waitFor();
    await shot('admin-user-history');

    await at('/admin/contact-messages');
    await page.getByText('Dana Reader').waitFor();
    await shot('admin-contact-messages');

    await at('/admin/projections');
    await page.getByRole('button', { name: 'Rebuild posts' }).waitFor();
    await shot('admin-projections');
  } catch (error) {
    const file = path.join(outDir, `failed-console-${width}.png`);
    await page.screenshot({ path: file }).catch(() => {});
    console.error(`failed at ${page.url()} (console, ${width}); the page is in ${file}`);
    throw error;
  } finally {
    await context.close();
  }
}

/** Lets requests end (forum-web's change stream aside), transitions end, images decode and fonts load before a shot. */
async function settle(page: Page) {
  await requestsSettled(page);
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.waitForTimeout(300);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
