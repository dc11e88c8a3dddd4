import type { TestForum } from '@forum/infra/testing';
import type { Locator, Page } from 'playwright-core';

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
import { beforeEach, describe, expect, it } from 'vitest';
import {
  chromiumMissing,
  chromiumMissingMessage,
  contrastRatio,
  DESKTOP,
  isChangeStream,
  journeySteps,
  PHONE,
  requestsSettled,
  setUpJourneys,
  snapshot,
} from './support.ts';

/**
 * forum-web's keyboard and page-load details, in Debian's Chromium against the whole product: where
 * the focus is after a vote or a comment, the tag strip under Tab, the skip link and the navigation
 * bar's focus rings, and a page load with nothing the browser warns of or gives up on.
 */
if (chromiumMissing) console.warn(chromiumMissingMessage('e2e/forum-web-ux.e2e.test.ts'));

describe.skipIf(chromiumMissing)('forum-web by keyboard and on load, in Chromium', () => {
  const journey = setUpJourneys('forum-web-ux');
  const { tabTo, apiPost, signInAt, signInBackAt, expectAccessible, toast, readModelsReach } = journeySteps(journey);
  let forum: TestForum;
  let page: Page;
  beforeEach(() => {
    ({ forum, page } = journey);
  });

  /** `target`'s box once it has stopped moving (a transition bringing it in has ended). */
  const settledBox = async (target: Locator): Promise<Box> => {
    let last = '';
    await expect
      .poll(
        async () => {
          const now = JSON.stringify(await target.boundingBox());
          const same = now === last;
          last = now;
          return same;
        },
        { timeout: 3000, interval: 100 },
      )
      .toBe(true);
    return JSON.parse(last) as Box;
  };
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
      await phone.evaluate(() => document.getAnimations().forEach((animation) => (animation.currentTime = 10000)));
      for (let presses = 0; presses < 30 && !(await hasFocus(chips.first())); presses++) await phone.keyboard.press('Tab');
      for (const [index, tag] of tags.entries()) {
        if (index > 0) await phone.keyboard.press('Tab');
        const chip = chips.nth(index);
        expect(await hasFocus(chip), `${tag} focused`).toBe(true);
        // in view: inside the strip's visible box and the screen
        await expect
          .poll(
            () =>
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

  it(
    '#28.12 the first Tab reaches "Skip to main content", which moves the focus to the page; the navigation bar shows clear focus rings',
    { timeout: 60_000 },
    async () => {
      await page.goto(`${forum.url}/contact`);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent), 'the first stop of Tab').toBe('Skip to main content');
      const skip = page.getByRole('link', { name: 'Skip to main content' });
      const box = (await skip.boundingBox())!;
      expect(box.y >= 0 && box.height > 10 && box.width > 50, 'the skip link shows once focused').toBe(true);
      await page.keyboard.press('Enter');
      // the next Tab goes on from the page's main landmark, past the navigation
      await page.keyboard.press('Tab');
      const next = await page.evaluate(() => document.activeElement?.closest('main, header, nav')?.tagName ?? document.activeElement?.tagName);
      expect(next, 'Tab after the skip link lands in main').toBe('MAIN');
      await expectAccessible('contact, after the skip link');

      // each control of the bar, reached by Tab, has a ring of at least 2 px that stands out from the bar by 3:1 or more
      await page.goto(`${forum.url}/about`);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      const bar = page.getByRole('banner');
      const controls = ['Forum', 'Home', 'About', 'Contact', 'Join Us'];
      for (const name of controls) {
        const control = bar.getByRole('link', { name, exact: true });
        await tabTo(control);
        const ring = await control.evaluate((element) => {
          const view = element.ownerDocument.defaultView!;
          const style = view.getComputedStyle(element);
          // the app bar (a header) paints the blue behind its controls
          return {
            style: style.outlineStyle,
            width: parseFloat(style.outlineWidth),
            color: style.outlineColor,
            bar: view.getComputedStyle(element.closest('header')!).backgroundColor,
          };
        });
        expect(ring.style, `${name}: an outline`).not.toBe('none');
        expect(ring.width, `${name}: its width`).toBeGreaterThanOrEqual(2);
        expect(contrastRatio(ring.color, ring.bar), `${name}: ${ring.color} on ${ring.bar}`).toBeGreaterThanOrEqual(3);
      }
    },
  );
  /**
   * Presses Tab through the whole page, from its top until the focus leaves it or comes back, and
   * answers each stop whose ring is missing, under 2 px, clipped, or under 3:1 against what is painted
   * around it (WCAG 2.4.7, and 1.4.11 for the ring's colour), with how many stops there were.
   */
  async function stopsWithoutRing(screen: string): Promise<{ stops: number; faults: string[] }> {
    await page.evaluate(() => {
      if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
      window.scrollTo(0, 0);
    });
    const faults: string[] = [];
    const seen = new Set<string>();
    for (let presses = 0; presses < 120; presses++) {
      await page.keyboard.press('Tab');
      const stop = await page.evaluate<FocusRing | null>(RING_OF_FOCUSED);
      if (stop === null || seen.has(stop.path)) break;
      seen.add(stop.path);
      const problems = [
        stop.style === 'none' || stop.style === 'hidden' ? 'no outline' : '',
        stop.width < 2 ? `outline ${stop.width}px` : '',
        stop.clipped ? `clipped by ${stop.clipped}` : '',
        ...stop.around.map((background) =>
          contrastRatio(stop.color, background) < 3 ? `${stop.color} on ${background}: ${contrastRatio(stop.color, background).toFixed(2)}:1` : '',
        ),
      ].filter(Boolean);
      if (problems.length > 0) faults.push(`${screen}: ${stop.name} — ${[...new Set(problems)].join(', ')}`);
    }
    return { stops: seen.size, faults };
  }

  it(
    "#39 edges 10 and 17: every stop of Tab on the home page and a post page shows a clear ring; the avatars' letters read at 4.5:1; axe",
    { timeout: 120_000 },
    async () => {
      const [olga, mia] = await Promise.all([forum.newUser('Olga Outline'), forum.newUser('mia Member')]);
      const admin = await forum.demoAdmin();
      const news = await forum.api('/api/admin/announcements', {
        method: 'POST',
        token: admin.token,
        json: { title: 'Rings everywhere', description: 'A visible focus on every control.' },
      });
      expect(news.status).toBe(201);
      const postId = await apiPost(olga, 'A post to Tab through', ['Design', 'Career']);
      const commented = await forum.api('/api/comments', { method: 'POST', token: mia.token, json: { postId, text: 'A comment to reach by keyboard.' } });
      expect(commented.status).toBe(201);
      await signInAt(mia, '/dashboard');
      await page.goto(`${forum.url}/`);
      await page.getByRole('heading', { name: 'Rings everywhere' }).waitFor();
      await page.getByRole('link', { name: 'A post to Tab through' }).waitFor();
      // the page came as the server's (a visitor's): mia's own bar once the app knows her
      await page.getByRole('button', { name: mia.name }).waitFor();

      // the avatars in view (the bar's, the announcement's, the cards'): letters, each at 4.5:1 or more
      const letters = await page.locator('.MuiAvatar-root:not(:has(img))').evaluateAll((avatars) =>
        avatars.map((avatar) => {
          const style = avatar.ownerDocument.defaultView!.getComputedStyle(avatar);
          return { letter: avatar.textContent, color: style.color, background: style.backgroundColor };
        }),
      );
      // mia's in the bar, Olga's on her card, the announcement's author (Forum Admin)
      expect(letters.map(({ letter }) => letter)).toEqual(expect.arrayContaining(['M', 'O', 'F']));
      for (const { letter, color, background } of letters)
        expect(contrastRatio(color, background), `${letter}: ${color} on ${background}`).toBeGreaterThanOrEqual(4.5);
      await expectAccessible('home, signed in, with an announcement and letter avatars');

      const home = await stopsWithoutRing('home');
      await page.goto(`${forum.url}/post/${postId}`);
      await page.getByRole('heading', { name: 'A post to Tab through', level: 1 }).waitFor();
      await page.getByText('A comment to reach by keyboard.').waitFor();
      await expectAccessible('a post, signed in');
      const post = await stopsWithoutRing('post');
      expect(home.stops, 'stops on the home page').toBeGreaterThan(20);
      expect(post.stops, 'stops on the post page').toBeGreaterThan(10);
      expect([...home.faults, ...post.faults]).toEqual([]);
    },
  );

  it(
    "#46 a phone's first load of the home page and of a post page moves nothing the reader sees: the footer starts below the screen, the tag strip keeps its room, the post's text comes with its renderer",
    { timeout: 90_000 },
    async () => {
      const paula = await forum.newUser('Paula Phone');
      // a post whose text runs over several lines on a phone (where a line of placeholder before it would be pushed down)
      const long = 'A paragraph of the post that runs over several lines on a phone, as most posts do. '.repeat(4);
      const created = await forum.api('/api/posts', {
        method: 'POST',
        token: paula.token,
        json: { title: 'A post read on a phone', description: `${long}\n\n${long}`, tags: ['Career'] },
      });
      expect(created.status).toBe(201);
      const { id: postId } = (await created.json()) as { id: string };
      await expect.poll(async () => (await forum.api(`/api/posts/${postId}`)).status, { timeout: 10_000 }).toBe(200);
      const context = await journey.browser.newContext({ viewport: PHONE, reducedMotion: 'reduce' });
      // the layout shifts of each page's life, as Chromium reports them to the page (Lighthouse's CLS adds up the same entries)
      await context.addInitScript(() => {
        const shifts: { value: number; nodes: string[] }[] = [];
        (window as unknown as { shifts: typeof shifts }).shifts = shifts;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean; sources: { node?: Node }[] })[]) {
            if (!entry.hadRecentInput) shifts.push({ value: entry.value, nodes: entry.sources.map((source) => source.node?.nodeName ?? '?') });
          }
        }).observe({ type: 'layout-shift', buffered: true });
      });
      // the API answers a moment after the page has painted, as on a phone's network: what comes in then must not move what is shown
      await context.route('**/api/**', async (route) => {
        if (!isChangeStream(route.request().url())) await new Promise((resolve) => setTimeout(resolve, 400));
        await route.continue();
      });
      const shiftsOf = async (path: string, loaded: (phone: Page) => Promise<void>) => {
        const phone = await context.newPage();
        await phone.goto(`${forum.url}${path}`);
        await loaded(phone);
        await requestsSettled(phone);
        const shifts = await phone.evaluate(() => (window as unknown as { shifts: { value: number; nodes: string[] }[] }).shifts);
        return { total: shifts.reduce((sum, shift) => sum + shift.value, 0), shifts: JSON.stringify(shifts) };
      };
      try {
        // the posts' cards and the tag strip are in
        const home = await shiftsOf('/', async (phone) => {
          await phone.locator('main article').first().waitFor();
          await phone.getByRole('navigation', { name: 'Browse by tag' }).waitFor();
        });
        // the post's text is in
        const post = await shiftsOf(`/post/${postId}`, (phone) => phone.getByText('A paragraph of the post').first().waitFor());
        // Lighthouse's "good" is under 0.1; what is left is the bar's account button as the sign-in check ends (~0.001)
        expect(home.total, `home: ${home.shifts}`).toBeLessThan(0.01);
        expect(post.total, `post: ${post.shifts}`).toBeLessThan(0.01);
      } finally {
        await context.close();
      }
    },
  );

  it('#28.16 the success toast covers neither the page title nor the actions beside it, on a desktop and a phone', { timeout: 90_000 }, async () => {
    const wanda = await forum.newUser('Wanda Writer');
    await signInAt(wanda, '/dashboard/add-post');
    for (const [width, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      await page.setViewportSize(viewport);
      await page.goto(`${forum.url}/dashboard/add-post`);
      await page.getByRole('textbox', { name: 'Post Title *' }).fill(`A post from the ${width}`);
      await page.getByRole('textbox', { name: 'Post Description *' }).fill('Written to see where the toast goes.');
      await page.getByRole('button', { name: 'Create Post' }).click();
      await page.waitForURL((url) => url.pathname === '/dashboard/my-post');
      const shown = toast('Your post has been created.');
      await shown.waitFor();
      // held under the pointer, as a reader holds it (MUI's Snackbar pauses its 5 s while hovered):
      // on a busy machine the measuring below could outlast it
      await shown.hover();
      const title = page.getByRole('heading', { name: 'My Posts', level: 1 });
      const add = page.getByRole('link', { name: 'Add New Post' });
      await add.waitFor();
      const box = await settledBox(shown);
      expect(overlaps(box, (await title.boundingBox())!), `${width}: the toast over the title`).toBe(false);
      expect(overlaps(box, (await add.boundingBox())!), `${width}: the toast over Add New Post`).toBe(false);
      expect(box.y + box.height <= viewport.height, `${width}: the toast on the screen`).toBe(true);
      expect(box.x + box.width > viewport.width / 2, `${width}: the toast on the right`).toBe(true);
      await shown.getByRole('button', { name: 'Close' }).click();
      await shown.waitFor({ state: 'hidden' });
    }
  });
  it(
    "#39 edge 23: the toast after a report covers neither the page's title, its intro text nor a comment's controls, on a desktop and a phone",
    { timeout: 120_000 },
    async () => {
      const [rita, colm] = await Promise.all([forum.newUser('Rita Reporter'), forum.newUser('Colm Commenter')]);
      const postId = await apiPost(colm, 'A thread to report in');
      let written = '';
      for (const text of ['The first comment, to be reported.', 'A second comment, still open to a report.', 'A third one, for good measure.']) {
        const sent = await forum.api('/api/comments', { method: 'POST', token: colm.token, json: { postId, text } });
        expect(sent.status).toBe(201);
        written = ((await sent.json()) as { position: string }).position;
      }
      // the comments page does not follow new comments live: it shows what the read side has when it loads
      await readModelsReach(written);
      await signInAt(rita, `/post/${postId}/comments`);
      for (const [width, viewport] of [
        ['desktop', DESKTOP],
        ['phone', PHONE],
      ] as const) {
        await page.setViewportSize(viewport);
        await page.goto(`${forum.url}/post/${postId}/comments`);
        const title = page.getByRole('heading', { name: 'Post Comments', level: 1 });
        const intro = page.getByText(/^Choose a feedback to report a comment/);
        const back = page.getByRole('button', { name: 'Back to Post' });
        const table = page.getByRole('table', { name: 'Comments' });
        const feedback = table.getByRole('combobox').first();
        await feedback.click();
        await page.getByRole('option', { name: 'This is spam' }).click();
        // the choice's menu closes first: a click on Report while its backdrop still covers the page
        // would be tried again at another scroll position, and the page would stand wherever that left it
        await page.getByRole('listbox').waitFor({ state: 'detached' });
        // every alert the page shows from here on, for the failure's message: one toast replaces another
        await page.evaluate(() => {
          const seen: string[] = [];
          Object.assign(window, { alertsSeen: seen });
          new MutationObserver(() => {
            for (const alert of document.querySelectorAll('[role="alert"]')) {
              const text = alert.textContent ?? '';
              if (text && !seen.includes(text)) seen.push(text);
            }
          }).observe(document.body, { childList: true, subtree: true, characterData: true });
        });
        await table.getByRole('button', { name: 'Report', exact: true }).first().click();
        const shown = toast('Reported! Your report has been submitted');
        await shown.waitFor().catch(async (error: unknown) => {
          const seen = await page.evaluate(() => (window as unknown as { alertsSeen: string[] }).alertsSeen);
          throw new Error(`${width}: no 'Reported!' toast; the alerts shown since the click: ${JSON.stringify(seen)}`, { cause: error });
        });
        // the pointer on it holds it (spec §9) while it is measured, however slow the machine
        await shown.hover();
        const box = await settledBox(shown);
        await snapshot(page, `report-toast-${width}`);
        // what the page shows: the fixed bar hides what is under it, whatever the page's scroll
        const bar = (await page.getByRole('banner').boundingBox())!;
        const barBottom = bar.y + bar.height;
        const shows = (part: Box): Box => {
          const top = Math.max(part.y, barBottom);
          return { x: part.x, y: top, width: part.width, height: part.y + part.height - top };
        };
        const covers = (part: Box) => part.height > 0 && overlaps(box, part);
        const at = `(toast ${JSON.stringify(box)}, bar's bottom ${barBottom}, page scrolled ${await page.evaluate(() => window.scrollY)})`;
        for (const [name, part] of [
          ['title', title],
          ['intro text', intro],
          ['Back to Post', back],
        ] as const) {
          const partBox = (await part.boundingBox())!;
          expect(covers(shows(partBox)), `${width}: the toast over the ${name} ${JSON.stringify(partBox)} ${at}`).toBe(false);
        }
        const controls = await table.locator('button, [role="combobox"]').evaluateAll((elements) =>
          elements.map((element) => {
            const { x, y, width, height } = element.getBoundingClientRect();
            return { name: element.textContent, box: { x, y, width, height } };
          }),
        );
        for (const control of controls) expect(covers(shows(control.box)), `${width}: the toast over ${control.name} ${at}`).toBe(false);
        expect(box.y >= 0 && box.y + box.height <= viewport.height, `${width}: the toast on the screen`).toBe(true);
        expect(box.x + box.width > viewport.width / 2, `${width}: the toast on the right`).toBe(true);
        await shown.getByRole('button', { name: 'Close' }).click();
        await shown.waitFor({ state: 'hidden' });
      }
    },
  );

  it(
    "#39 edge 2: a field the browser's check brings into view shows below the fixed bar, on every form, on a desktop and a phone",
    { timeout: 90_000 },
    async () => {
      const dana = await forum.newUser('Dana Details');
      const clearOfBar = async (field: Locator, what: string) => {
        // the browser scrolls the field into view, then says what is missing beside it
        await expect.poll(() => hasFocus(field), { message: `${what}: the field refused has the focus`, timeout: 5000 }).toBe(true);
        const bar = (await page.getByRole('banner').boundingBox())!;
        const box = await settledBox(field);
        expect(box.y, `${what}: the field's top (${box.y}) below the bar's bottom (${bar.y + bar.height})`).toBeGreaterThanOrEqual(bar.y + bar.height);
        // its label, above the box, shows too
        const label = await field.evaluate((element) => element.closest('.MuiFormControl-root')!.querySelector('label')!.getBoundingClientRect().top);
        expect(label, `${what}: the field's label below the bar`).toBeGreaterThanOrEqual(bar.y + bar.height);
      };
      for (const [width, viewport] of [
        ['desktop', DESKTOP],
        ['phone', PHONE],
      ] as const) {
        // a screen short enough that the form's first field is out of view when its button is pressed
        await page.setViewportSize({ width: viewport.width, height: 480 });
        await page.goto(`${forum.url}/contact`);
        await page.getByRole('textbox', { name: 'Message' }).fill('Name left empty on purpose.');
        const send = page.getByRole('button', { name: 'Send Message' });
        await send.scrollIntoViewIfNeeded();
        await send.click();
        await clearOfBar(page.getByRole('textbox', { name: 'Name' }), `${width}: Contact`);
        await snapshot(page, `contact-field-clear-of-bar-${width}`);
      }
      // a form that checks itself (Create New Post) puts the focus on its first field in error: clear of the bar too
      await page.setViewportSize({ width: PHONE.width, height: 480 });
      await signInAt(dana, '/dashboard/add-post');
      const create = page.getByRole('button', { name: 'Create Post' });
      await create.scrollIntoViewIfNeeded();
      await create.click();
      await clearOfBar(page.getByRole('textbox', { name: 'Post Title *' }), 'phone: Create New Post');
    },
  );

  it(
    '#28.16 a page load, signed out and signed in, logs no warning and has no request fail or aborted (but the change stream the reload ends)',
    { timeout: 90_000 },
    async () => {
      const warnings: string[] = [];
      const failed: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'warning' || message.type() === 'error') warnings.push(`${message.type()}: ${message.text()}`);
      });
      page.on('requestfailed', (request) => failed.push(`${request.method()} ${request.url()}: ${request.failure()?.errorText}`));
      // the streams the page opened, in order: a stream the page closed to follow more topics (a part
      // of the page that mounted later, e.g. a lazy route on a busy machine) is opened again, not failed
      const streams: string[] = [];
      page.on('request', (request) => {
        if (isChangeStream(request.url())) streams.push(request.url());
      });
      const topicsOf = (url: string) => new URL(url).searchParams.get('topics')!.split(',');
      const reopenedForMore = (line: string) => {
        const match = /^GET (\S+\/api\/stream\?\S+): net::ERR_ABORTED$/.exec(line);
        if (!match) return false;
        const later = streams.slice(streams.indexOf(match[1]!) + 1);
        return later.some((url) => topicsOf(match[1]!).every((topic) => topicsOf(url).includes(topic)) && topicsOf(url).length > topicsOf(match[1]!).length);
      };
      // the page is whole once its change stream is open and every other request has ended
      let streamOpened = page.waitForResponse((response) => isChangeStream(response.url()));
      const settled = async () => {
        await page.getByRole('heading', { name: 'Welcome to the Forum', level: 1 }).waitFor();
        await page.getByRole('article').first().waitFor();
        expect((await streamOpened).status()).toBe(200);
        await requestsSettled(page);
      };
      await page.goto(`${forum.url}/`);
      await settled();
      await page.getByRole('link', { name: 'Join Us' }).waitFor();
      const signedOut = { warnings: [...warnings], failed: failed.filter((line) => !reopenedForMore(line)) };

      // signed in: the reload signs in silently (check-sso) and logs and aborts nothing either
      const sam = await forum.newUser('Sam Silent');
      await page.getByRole('link', { name: 'Join Us' }).click();
      streamOpened = page.waitForResponse(
        (response) => isChangeStream(response.url()) && new URL(response.url()).searchParams.get('topics')!.split(',').includes('me'),
      );
      await signInBackAt(sam, '/');
      await settled();
      warnings.length = 0;
      failed.length = 0;
      streamOpened = page.waitForResponse((response) => isChangeStream(response.url()));
      await page.reload();
      await settled();
      await page.getByRole('button', { name: sam.name }).waitFor();
      // the reload ends the change stream the page held open (that abort is the browser's own), and only that
      const streamEnded = (line: string) => /^GET \S+\/api\/stream\?\S+: net::ERR_ABORTED$/.test(line);
      const failedAfterReload = failed.filter((line) => !reopenedForMore(line));
      expect(failedAfterReload.filter(streamEnded)).toHaveLength(1);
      const signedIn = { warnings, failed: failedAfterReload.filter((line) => !streamEnded(line)) };
      expect({ signedOut, signedIn }).toEqual({ signedOut: { warnings: [], failed: [] }, signedIn: { warnings: [], failed: [] } });
    },
  );
});

/** A stop of Tab: what has the focus, and the ring that shows it (see RING_OF_FOCUSED). */
interface FocusRing {
  name: string;
  /** where the focused element is in the page's tree, to know it when Tab comes back to it */
  path: string;
  style: string;
  width: number;
  color: string;
  around: string[];
  clipped: string;
}

/**
 * In the page: the focused element's ring, or null when the focus is on no element of the page. The
 * ring is the focused element's outline, or that of the field or card around it that shows the focus
 * (up to three levels up); `around`: the colours painted just outside the ring on each side that is
 * on the screen; `clipped`: an ancestor whose overflow cuts the ring off.
 */
const RING_OF_FOCUSED = `(() => {
  const focused = document.activeElement;
  if (!focused || focused === document.body) return null;
  const styleOf = (e) => getComputedStyle(e);
  let ringed = focused;
  for (let e = focused, up = 0; e && up <= 3; e = e.parentElement, up++) {
    if (styleOf(e).outlineStyle !== 'none') { ringed = e; break; }
  }
  const style = styleOf(ringed);
  const width = parseFloat(style.outlineWidth) || 0;
  const reach = Math.max(parseFloat(style.outlineOffset) || 0, 0) + width;
  const box = ringed.getBoundingClientRect();
  const outer = { left: box.left - reach, right: box.right + reach, top: box.top - reach, bottom: box.bottom + reach };
  const opaque = (color) => { const parts = color.match(/[\\d.]+/g) || []; return parts.length === 3 || (parts.length === 4 && Number(parts[3]) === 1); };
  const paintedAt = (x, y) => {
    for (const e of document.elementsFromPoint(x, y)) {
      if (ringed.contains(e)) continue;
      const background = styleOf(e).backgroundColor;
      if (opaque(background)) return background;
    }
    return 'rgb(255, 255, 255)';
  };
  const middle = { x: (box.left + box.right) / 2, y: (box.top + box.bottom) / 2 };
  const points = [[outer.left - 1, middle.y], [outer.right + 1, middle.y], [middle.x, outer.top - 1], [middle.x, outer.bottom + 1]]
    .filter(([x, y]) => x >= 0 && y >= 0 && x < innerWidth && y < innerHeight);
  let clipped = '';
  for (let e = ringed.parentElement; e && e !== document.body; e = e.parentElement) {
    const s = styleOf(e);
    const r = e.getBoundingClientRect();
    const cutX = s.overflowX !== 'visible' && (outer.left < r.left - 0.5 || outer.right > r.right + 0.5);
    const cutY = s.overflowY !== 'visible' && (outer.top < r.top - 0.5 || outer.bottom > r.bottom + 0.5);
    if (cutX || cutY) { clipped = e.tagName.toLowerCase() + (e.getAttribute('aria-label') ? '[' + e.getAttribute('aria-label') + ']' : ''); break; }
  }
  const label = focused.getAttribute('aria-label') || focused.textContent.trim().slice(0, 40) || focused.getAttribute('placeholder') || '';
  const path = [];
  for (let e = focused; e && e !== document.documentElement; e = e.parentElement) path.unshift(e.tagName + ':' + Array.prototype.indexOf.call(e.parentElement?.children ?? [], e));
  return { name: focused.tagName.toLowerCase() + ' "' + label + '"', path: path.join('/'), style: style.outlineStyle, width, color: style.outlineColor, around: points.map(([x, y]) => paintedAt(x, y)), clipped };
})()`;
