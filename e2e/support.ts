import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEMO_ACCOUNTS } from '@forum/infra/embedded';
import { startTestForum, type NewUser, type TestForum } from '@forum/infra/testing';
import type Axe from 'axe-core';
import { chromium, type Browser, type BrowserContext, type Locator, type Page, type Request } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';

/** Debian's Chromium, driven by playwright-core (`npx playwright install` cannot download browsers here). */
export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
export const chromiumMissing = !existsSync(CHROMIUM);
/** Why a journey file is skipped where Chromium is not installed. */
export const chromiumMissingMessage = (file: string) => `${file} skipped: Debian chromium (${CHROMIUM}) not installed (apt-get install -y chromium)`;

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/**
 * Debian's Chromium, headless. Every context it makes (`newContext`, `newPage`) watches for CSP
 * violations (watchCspViolations) into the browser's list, which `takeCspViolations` reads, and
 * keeps its requests under way for `requestsSettled`.
 */
export async function launchChromium(): Promise<Browser> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  const violations: string[] = [];
  cspViolations.set(browser, violations);
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    await watchCspViolations(context, violations);
    watchRequests(context);
    if (options?.javaScriptEnabled !== false) gotoWaitsForTheApp(context);
    return context;
  };
  return browser;
}

/**
 * A page the server rendered (forum-web's public pages, docs/seo.md) shows its controls before the
 * app has hydrated them, and a click then does nothing: as a person waits for a page to have loaded,
 * each page's `goto` waits for forum-web to run in it (`data-app="running"`) when the page came with
 * the server's state. Other pages (the realm's, the console's, forum-web's others) go on at once.
 */
function gotoWaitsForTheApp(context: BrowserContext): void {
  const newPage = context.newPage.bind(context);
  context.newPage = async () => {
    const page = await newPage();
    const goto = page.goto.bind(page);
    page.goto = async (url, options) => {
      const response = await goto(url, options);
      if (options?.waitUntil !== 'commit') {
        await page.waitForFunction(() => document.getElementById('forum-state') === null || document.documentElement.dataset.app === 'running');
      }
      return response;
    };
    return page;
  };
}

/** forum-web's change stream (GET /api/stream, docs/live.md): a request that stays open as long as its page. */
export const isChangeStream = (url: string) => new URL(url).pathname === '/api/stream';

/** Each context's requests under way, the change stream's aside. */
const requestsUnderWay = new WeakMap<BrowserContext, Set<Request>>();

function watchRequests(context: BrowserContext): void {
  const underWay = new Set<Request>();
  requestsUnderWay.set(context, underWay);
  context.on('request', (request) => {
    if (!isChangeStream(request.url())) underWay.add(request);
  });
  context.on('requestfinished', (request) => underWay.delete(request));
  context.on('requestfailed', (request) => underWay.delete(request));
}

/**
 * Waits until `page` has had no request under way for `quietMs`, its change stream aside (what
 * Playwright's 'networkidle' waits for, which never comes while a page holds a stream open).
 */
export async function requestsSettled(page: Page, { quietMs = 500, timeout = 30_000 } = {}): Promise<void> {
  const underWay = requestsUnderWay.get(page.context());
  if (!underWay) throw new Error('requestsSettled needs a context of launchChromium');
  // (a service worker's request has no frame: it is no page's)
  const pageOf = (request: Request) => (request.serviceWorker() ? null : request.frame().page());
  const busy = () => [...underWay].some((request) => pageOf(request) === page);
  const until = Date.now() + timeout;
  let quietSince = Date.now();
  while (Date.now() - quietSince < quietMs) {
    if (busy()) quietSince = Date.now();
    if (Date.now() > until) throw new Error(`requests still under way after ${timeout} ms: ${[...underWay].map((request) => request.url()).join(', ')}`);
    await page.waitForTimeout(50);
  }
}

/** What each browser of launchChromium's has reported and the tests have not taken yet. */
const cspViolations = new WeakMap<Browser, string[]>();
const CSP_REPORT_BINDING = '__forumCspViolation';

/**
 * Collects into `into` every Content-Security-Policy violation the browser reports in `context`,
 * in any page or frame: the `securitypolicyviolation` event (a script, style, image, connection
 * or frame the page's CSP refused, or an eval), and the console's "Refused to …" lines (which
 * also tell of a page that refused to be framed). The journeys require none.
 */
export async function watchCspViolations(context: BrowserContext, into: string[]): Promise<void> {
  await context.exposeBinding(CSP_REPORT_BINDING, (_source, line: string) => void into.push(line));
  await context.addInitScript((binding: string) => {
    // (this runs in the page, where exposeBinding has put the binding on window)
    const report = (line: string) => (window as unknown as Record<string, (line: string) => void>)[binding]!(line);
    document.addEventListener(
      'securitypolicyviolation',
      (event) =>
        report(`${event.effectiveDirective} refused ${event.blockedURI || '(inline)'} on ${location.href} (${event.sourceFile || '?'}:${event.lineNumber})`),
      true,
    );
  }, CSP_REPORT_BINDING);
  context.on('console', (message) => {
    if (!/^Refused to |Content Security Policy/.test(message.text())) return;
    // where: the script that ran when the browser refused, and the page (or worker) it ran in
    const { url, lineNumber } = message.location();
    into.push(`console: ${message.text()} (at ${url}:${lineNumber} on ${message.page()?.url() ?? message.worker()?.url() ?? '?'})`);
  });
}

/** The CSP violations `browser` (launchChromium's) has reported since the last call, and forgets them. */
export function takeCspViolations(browser: Browser): string[] {
  return cspViolations.get(browser)?.splice(0) ?? [];
}

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
/** axe-core's script, read from disk once for every check of the run. */
let axeSource: Promise<string> | undefined;

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/**
 * axe-core on the page as it is now: the violations of impact serious or critical (what the
 * journeys require to be none), each with the first elements it names.
 */
export async function seriousA11yViolations(page: Page): Promise<AxeViolation[]> {
  // a dialog still fading in has its text at part opacity, which axe measures as low contrast:
  // let finite transitions end first (a spinner's endless one never does), checked on each frame
  // from the next one on (a transition React has just asked for starts there), 3 s at most
  const transitionsEnded = `new Promise((resolve) => {
    const until = Date.now() + 3000;
    const ended = () => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity);
    const check = () => (ended() || Date.now() > until ? resolve() : requestAnimationFrame(check));
    requestAnimationFrame(check);
  })`;
  const runAxe = async () => {
    // (this runs in the page's own world, where axe-core's script has put `axe` on window)
    const { axe } = window as unknown as { axe: typeof Axe };
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => JSON.stringify(n.target)) }));
  };
  const reading = async () =>
    (await evaluateInOwnWorld<AxeViolation[]>(page, [transitionsEnded, await (axeSource ??= readFile(axePath, 'utf8')), `(${runAxe.toString()})()`])).filter(
      (v) => v.impact === 'serious' || v.impact === 'critical',
    );
  const first = await reading();
  // a part that began to fade in while axe read the page (a toast after a sign-in) had its text at
  // part opacity: a second reading, after its transition, tells a frame of it from a real contrast
  return first.some((v) => v.id === 'color-contrast') ? reading() : first;
}

/**
 * Evaluates `expressions` in turn in a world of its own in the page's main frame, as a browser
 * extension's script runs, and returns the last one's value (a promise awaited, the value as
 * JSON). Such a world reads the page's DOM but not its globals, and the page's CSP does not
 * apply to it: axe-core compiles some of its messages with `new Function`, which the apps' CSP
 * refuses (and reports) in the page's own world.
 */
async function evaluateInOwnWorld<T>(page: Page, expressions: readonly string[]): Promise<T> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { frameTree } = await cdp.send('Page.getFrameTree');
    const { executionContextId } = await cdp.send('Page.createIsolatedWorld', {
      frameId: frameTree.frame.id,
      worldName: 'e2e-tools',
      grantUniveralAccess: true,
    });
    let value: unknown;
    for (const expression of expressions) {
      const answer = await cdp.send('Runtime.evaluate', { expression, contextId: executionContextId, awaitPromise: true, returnByValue: true });
      if (answer.exceptionDetails) throw new Error(`in the page: ${answer.exceptionDetails.exception?.description ?? answer.exceptionDetails.text}`);
      value = answer.result.value;
    }
    return value as T;
  } finally {
    await cdp.detach().catch(() => {});
  }
}

/** WCAG's contrast ratio of two CSS colours given as rgb()/rgba() (opaque). */
export function contrastRatio(first: string, second: string): number {
  const luminance = (color: string) => {
    const [r, g, b] = color
      .match(/[\d.]+/g)!
      .slice(0, 3)
      .map((part) => {
        const channel = Number(part) / 255;
        return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
      });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const [light, dark] = [luminance(first), luminance(second)].sort((a, b) => b - a);
  return (light! + 0.05) / (dark! + 0.05);
}

/**
 * The colours `target`'s text and its background are painted in, opaque (rgb()): its text colour and
 * background blended as the browser does, with their alpha and the element's opacity, over the
 * backgrounds of its ancestors (the page white under all). What axe leaves out (a disabled button),
 * measured the same way.
 */
export async function paintedColors(target: Locator): Promise<{ text: string; background: string }> {
  return target.evaluate((element) => {
    type Rgba = [number, number, number, number];
    const view = element.ownerDocument.defaultView!;
    const parse = (color: string): Rgba => {
      const [r = 0, g = 0, b = 0, a = 1] = color.match(/[\d.]+/g)!.map(Number);
      return [r, g, b, a];
    };
    /** `top` painted over the opaque `under`, with `alpha` more of transparency. */
    const over = (top: Rgba, under: Rgba, alpha = 1): Rgba => {
      const a = top[3] * alpha;
      return [0, 1, 2].map((i) => top[i]! * a + under[i]! * (1 - a)).concat(1) as Rgba;
    };
    const ancestors: (typeof element)[] = [];
    for (let node = element.parentElement; node; node = node.parentElement) ancestors.unshift(node);
    let backdrop: Rgba = [255, 255, 255, 1];
    for (const node of ancestors) backdrop = over(parse(view.getComputedStyle(node).backgroundColor), backdrop);
    const style = view.getComputedStyle(element);
    const opacity = Number(style.opacity);
    const background = over(parse(style.backgroundColor), backdrop, opacity);
    const text = over(parse(style.color), background, opacity);
    const css = (color: Rgba) =>
      `rgb(${color
        .slice(0, 3)
        .map((channel) => Math.round(channel))
        .join(', ')})`;
    return { text: css(text), background: css(background) };
  });
}

/** The description of a field (its helper text), as a screen reader reads it with the field: the text its aria-describedby names first. */
export function descriptionOf(field: Locator): Promise<string | null> {
  return field.evaluate((element) => {
    const [first = ''] = (element.getAttribute('aria-describedby') ?? '').split(' ');
    return element.ownerDocument.getElementById(first)?.textContent ?? null;
  });
}

/** With E2E_ARTIFACTS=<dir>, a screenshot of the page (after transitions settle). */
export async function snapshot(page: Page, name: string): Promise<void> {
  if (!process.env.E2E_ARTIFACTS) return;
  await mkdir(process.env.E2E_ARTIFACTS, { recursive: true });
  await page.waitForTimeout(400);
  await page.screenshot({ path: path.join(process.env.E2E_ARTIFACTS, `${name}.png`), fullPage: true });
}

/** The demo admin's address (the seed's account with the admin role). */
export const ADMIN_EMAIL = DEMO_ACCOUNTS.find((account) => (account.roles as readonly string[]).includes('admin'))!.email;

/**
 * Fills the realm's own login page (identity/src/pages/sign-in.ts) once the app has sent the browser
 * there, and submits it; the realm then sends the browser back to the app.
 */
export async function signInAtRealm(page: Page, email: string, password: string): Promise<void> {
  await page.waitForURL((url) => url.pathname.startsWith('/realms/forum/login-actions/authenticate/'));
  await page.getByRole('heading', { name: 'Sign in to your account' }).waitFor();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** What a journey file's tests drive: set before each test by `setUpJourneys`. */
export interface Journey {
  forum: TestForum;
  browser: Browser;
  context: BrowserContext;
  page: Page;
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The hooks of a journey file (call it inside its describe): one forum (startTestForum, the demo
 * data; `env`, settings of its own) and one Chromium for the file; a fresh desktop context preferring reduced motion (the home
 * tag strip stands still, MUI's transitions are short) and page for each test, which must end with
 * no uncaught error in the page and no CSP violation in any of its browser's pages (but those
 * `unexplained` names, each said why where it is passed). With E2E_ARTIFACTS, a failing test
 * leaves a screenshot there.
 */
export function setUpJourneys(name: string, env: Record<string, string> = {}, { unexplained }: { unexplained?: RegExp } = {}): Journey {
  const journey = {} as Journey;
  let pageErrors: string[] = [];
  let consoleLines: string[] = [];
  beforeAll(async () => {
    const webDir = process.env.FORUM_WEB_DIR ?? path.join(root, 'forum-web/dist');
    if (!existsSync(path.join(webDir, 'index.html'))) throw new Error('forum-web is not built: run "npm run build:web" first (npm test does)');
    [journey.forum, journey.browser] = await Promise.all([startTestForum(env), launchChromium()]);
    // the whole forum and a browser at once: on 2 cores busy with the other test files, more than the usual hook's minute
  }, 180_000);
  afterAll(async () => {
    await journey.browser?.close();
    await journey.forum?.stop();
  });
  beforeEach(async () => {
    takeCspViolations(journey.browser); // an earlier test's, already failed on
    journey.context = await journey.browser.newContext({ viewport: DESKTOP, reducedMotion: 'reduce' });
    journey.page = await journey.context.newPage();
    pageErrors = [];
    consoleLines = [];
    journey.page.on('pageerror', (error) => pageErrors.push(error.message));
    journey.page.on('console', (message) => consoleLines.push(`${message.type()}: ${message.text()}`));
  });
  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail') {
      // what the page showed, for a failure in CI where no screenshot is kept
      const shown = await journey.page
        .locator('body')
        .innerText({ timeout: 2000 })
        .catch(() => '(no page text)');
      // what is hidden from assistive technology (role queries skip it): a dialog's leftovers show here
      const hidden = await journey.page
        .evaluate(() =>
          [...document.querySelectorAll('[aria-hidden=true], [inert]')]
            .filter((e) => e.querySelector('main'))
            .map((e) => `${e.tagName}#${e.id}.${e.className}`)
            .join(', '),
        )
        .catch(() => '?');
      console.error(
        `${name}: "${task.name}" failed on ${journey.page.url()}; the page showed:\n${shown.slice(0, 1500)}\nconsole: ${consoleLines.slice(-10).join('\n')}\nhidden around the page: ${hidden || 'nothing'}`,
      );
      if (process.env.E2E_ARTIFACTS) {
        await mkdir(process.env.E2E_ARTIFACTS, { recursive: true });
        const file = `failed-${name}-${task.name.slice(0, 40).replace(/\W+/g, '-')}.png`;
        await journey.page.screenshot({ path: path.join(process.env.E2E_ARTIFACTS, file) }).catch(() => {});
      }
    }
    await journey.context.close();
    expect(pageErrors, 'uncaught errors in the page').toEqual([]);
    expect(
      takeCspViolations(journey.browser).filter((line) => !unexplained?.test(line)),
      'CSP violations the browser reported',
    ).toEqual([]);
  });
  return journey;
}

/** The steps the journeys share, on the journey's page and forum of the moment. */
export function journeySteps(journey: Journey) {
  /** Waits until the read side has applied the event at `position` (a command's answer). */
  const readModelsReach = async (position: string) => {
    await expect
      .poll(async () => (await journey.forum.api('/api/tags', { headers: { 'X-Min-Position': position } })).headers.get('x-read-behind'), { timeout: 15_000 })
      .toBeNull();
  };
  /** Signs the member in on the realm's page; then they are back in the forum at `landing`, signed in. */
  const signInBackAt = async (member: NewUser, landing: string) => {
    const { forum, page } = journey;
    await signInAtRealm(page, member.email, member.password);
    await page.waitForURL((url) => url.origin === forum.url && url.pathname === landing && url.hash === '');
    await page.getByRole('button', { name: member.name }).waitFor();
  };
  return {
    readModelsReach,
    signInBackAt,
    /** A page that needs sign-in sends the visitor through the realm and back to it, signed in as `member`. */
    async signInAt(member: NewUser, guardedPath: string) {
      await journey.page.goto(`${journey.forum.url}${guardedPath}`);
      await signInBackAt(member, guardedPath);
    },
    /** A post written through the API with the member's token; its id once the read side shows it. */
    async apiPost(member: NewUser, title: string, tags = ['Career']): Promise<string> {
      const response = await journey.forum.api('/api/posts', {
        method: 'POST',
        token: member.token,
        json: { title, description: `${title}: written through the API for the journey.`, tags },
      });
      expect(response.status).toBe(201);
      const { id, position } = (await response.json()) as { id: string; position: string };
      await readModelsReach(position);
      return id;
    },
    /** axe-core finds no serious or critical violation on the page as it is. */
    async expectAccessible(screen: string) {
      expect(await seriousA11yViolations(journey.page), `axe on ${screen}`).toEqual([]);
    },
    /** Presses Tab until `target` has the focus (a person's way through the page). */
    async tabTo(target: Locator, maxPresses = 30) {
      for (let presses = 0; presses < maxPresses; presses++) {
        await journey.page.keyboard.press('Tab');
        if (await target.evaluate((element) => element === element.ownerDocument.activeElement)) return;
      }
      throw new Error(`${target.toString()} not reached with ${maxPresses} presses of Tab`);
    },
    /** A toast (MUI's Alert, react-admin's notification) with `text`. */
    toast: (text: string) => journey.page.getByRole('alert').filter({ hasText: text }),
  };
}
