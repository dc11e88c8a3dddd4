/**
 * `npm run bench -- lighthouse`: the forum as people feel it (issue #46): Lighthouse's mobile audit
 * (its default config: a phone's screen, simulated slow 4G and a 4× slower CPU) of the home page and a
 * post page, in Debian's Chromium (LIGHTHOUSE_CHROME, /usr/bin/chromium).
 *
 * 1. forum-web is built if its sources changed (as `npm start` does), and `npm start`'s stack starts in
 *    its own process on a fresh data folder with the demo data; two members add LIGHTHOUSE_COMMENTS (12)
 *    comments to one of its posts, so that post's page is one with a conversation under it.
 * 2. Each page is audited LIGHTHOUSE_RUNS (3) times in one Chromium (Lighthouse resets its storage and
 *    cache before each run); the run Lighthouse itself calls the median (nearest the median First
 *    Contentful Paint and Time to Interactive) stands for the page.
 *
 * Prints a Markdown table (for docs/performance.md): the four categories' scores, LCP, CLS, TBT and
 * FCP, the spread of the performance score over the runs and Lighthouse's measure of the machine's CPU
 * speed during the run (the simulation scales the work the page's main thread did here: a busy machine
 * gives a longer TBT and LCP); under it, for each score below its target (performance 90, the others
 * 95), the audits that cost points. LIGHTHOUSE_REPORTS=<folder> keeps each page's median run as
 * Lighthouse's reports (HTML and JSON). Exits 0 when it measured, whatever the scores are: a run that
 * could not measure (the forum or Chromium did not start) fails.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HEADER_TOTAL_COUNT, postPagePath, type PostsPage } from '@forum/contracts';
import { launch } from 'chrome-launcher';
import lighthouse, { generateReport, type Result } from 'lighthouse';
import { buildWebApps } from '../embedded/web-apps.ts';
import { startBenchServer } from './server.ts';

const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const COMMENTS = Number(process.env.LIGHTHOUSE_COMMENTS ?? 12);
const CHROME = process.env.LIGHTHOUSE_CHROME ?? '/usr/bin/chromium';
/** A folder for each page's median run as Lighthouse's HTML report (its JSON is inside), to read the audits' details. */
const REPORTS = process.env.LIGHTHOUSE_REPORTS;
/** Issue #46's targets, by Lighthouse's category id. */
const TARGETS = { performance: 90, accessibility: 95, 'best-practices': 95, seo: 95 } as const;
type Category = keyof typeof TARGETS;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const say = (line: string) => process.stderr.write(`${line}\n`);

if (!(await buildWebApps({ root, apps: ['forum-web'], env: process.env, write: (text) => process.stderr.write(text) }))) process.exit(1);
const server = await startBenchServer();
const chrome = await launch({ chromePath: CHROME, chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'], logLevel: 'error' });
try {
  const post = await postWithConversation(server.base, (email) => server.token(email));
  // the forum's own address (PUBLIC_URL's default): the sign-in check's frame is allowed back only to it
  const site = server.base.replace('//127.0.0.1:', '//localhost:');
  const pages = [
    { name: 'home page', url: `${site}/` },
    { name: 'post page', url: `${site}${postPagePath(post)}` },
  ];
  const rows: string[] = [];
  let version = '';
  const below: string[] = [];
  for (const page of pages) {
    const runs: Result[] = [];
    for (let run = 1; run <= RUNS; run++) {
      say(`${page.name}: Lighthouse run ${run} of ${RUNS}…`);
      const result = await lighthouse(page.url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: Object.keys(TARGETS) });
      if (!result) throw new Error(`Lighthouse gave no result for ${page.url}`);
      if (result.lhr.runtimeError) throw new Error(`Lighthouse could not audit ${page.url}: ${result.lhr.runtimeError.message}`);
      runs.push(result.lhr);
    }
    const median = medianRun(runs);
    version = median.lighthouseVersion;
    if (REPORTS) {
      await mkdir(REPORTS, { recursive: true });
      const file = path.join(REPORTS, page.name.replace(/ /g, '-'));
      await writeFile(`${file}.html`, generateReport(median, 'html'));
      await writeFile(`${file}.json`, generateReport(median, 'json'));
    }
    const score = (lhr: Result, category: Category) => Math.round((lhr.categories[category]?.score ?? 0) * 100);
    const performances = runs.map((lhr) => score(lhr, 'performance')).sort((a, b) => a - b);
    const audit = (id: string) => median.audits[id]?.numericValue ?? Number.NaN;
    const mark = (category: Category) => `${score(median, category)}${score(median, category) < TARGETS[category] ? ' ✗' : ''}`;
    rows.push(
      `| ${page.name} | ${mark('performance')} (${performances[0]}–${performances.at(-1)}) | ${mark('accessibility')} | ${mark('best-practices')} | ${mark('seo')} | ${(audit('largest-contentful-paint') / 1000).toFixed(2)} s | ${audit('cumulative-layout-shift').toFixed(3)} | ${Math.round(audit('total-blocking-time'))} ms | ${(audit('first-contentful-paint') / 1000).toFixed(2)} s | ${Math.round(median.environment.benchmarkIndex)} |`,
    );
    for (const category of Object.keys(TARGETS) as Category[]) {
      if (score(median, category) >= TARGETS[category]) continue;
      below.push(`- ${page.name}, ${median.categories[category]!.title} ${score(median, category)} (below target ${TARGETS[category]}):`);
      for (const ref of median.categories[category]!.auditRefs) {
        const found = median.audits[ref.id];
        // performance's weightless audits are its opportunities and diagnostics: what makes the metrics what they are
        if (!found || (ref.weight === 0 && category !== 'performance') || found.score === null || found.score >= 0.9) continue;
        below.push(`  - \`${ref.id}\` ${found.title}${found.displayValue ? ` (${found.displayValue})` : ''}`);
      }
    }
  }
  process.stdout.write(
    [
      `Lighthouse ${version} mobile (simulated slow 4G, 4× CPU slowdown), ${RUNS} runs a page, the median run; Chromium at ${CHROME}.`,
      `Load average ${os
        .loadavg()
        .map((n) => n.toFixed(1))
        .join(', ')} on ${os.cpus().length} cores.`,
      '',
      '| page | performance (runs) | accessibility | best practices | SEO | LCP | CLS | TBT | FCP | CPU index |',
      '|---|---|---|---|---|---|---|---|---|---|',
      ...rows,
      '',
      // the simulation scales the main thread's work as this machine did it: a busy machine (a lower index) gives a longer TBT, FCP and LCP
      "CPU index: Chromium's speed on this machine during the median run, as Lighthouse measures it (higher is faster).",
      '',
      ...(below.length ? ['Below target (✗): the audits that cost points', ...below] : ['Every score at or above its target.']),
      '',
    ].join('\n'),
  );
} finally {
  chrome.kill();
  await server.stop();
}

/**
 * The run Lighthouse's own tools call the median (its computeMedianRun): the one nearest the median
 * First Contentful Paint and Time to Interactive, the first and the last moment of the load.
 */
function medianRun(runs: Result[]): Result {
  const value = (lhr: Result, id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const median = (id: string) => {
    const sorted = runs.map((lhr) => value(lhr, id)).sort((a, b) => a - b);
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  };
  const fcp = median('first-contentful-paint');
  const tti = median('interactive');
  const distance = (lhr: Result) => (value(lhr, 'first-contentful-paint') - fcp) ** 2 + (value(lhr, 'interactive') - tti) ** 2;
  return runs.reduce((best, lhr) => (distance(lhr) < distance(best) ? lhr : best));
}

/**
 * The demo post with the conversation the bench adds: COMMENTS comments from two members, each
 * answered 201; waits until the read side shows them all.
 */
async function postWithConversation(base: string, token: (email: string) => Promise<string>): Promise<string> {
  const { posts } = (await (await fetch(`${base}/api/posts?page=1&sort=newest`)).json()) as PostsPage;
  const post = posts.find((p) => p.title.startsWith('How do you structure')) ?? posts[0];
  if (!post) throw new Error('the demo data has no posts');
  const members = [await token('alice@forum.local'), await token('admin@forum.local')];
  for (let n = 0; n < COMMENTS; n++) {
    const text = `${n % 2 ? 'We' : 'I'} group by feature: each feature folder holds its components, hooks and tests, and a shared folder holds what two or more features use. Comment ${n + 1}.`;
    const answer = await fetch(`${base}/api/comments`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${members[n % members.length]}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ postId: post._id, text }),
    });
    if (answer.status !== 201) throw new Error(`comment ${n + 1}: ${answer.status} ${await answer.text()}`);
  }
  for (let tries = 0; ; tries++) {
    const total = Number((await fetch(`${base}/api/comments/${post._id}`)).headers.get(HEADER_TOTAL_COUNT) ?? 0);
    if (total >= COMMENTS) return post._id;
    if (tries > 100) throw new Error(`the read side shows ${total} of ${COMMENTS} comments`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
