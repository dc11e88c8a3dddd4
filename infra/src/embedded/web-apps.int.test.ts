import { existsSync } from 'node:fs';
import { appendFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { matching } from '@forum/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWebApps } from './web-apps.ts';

/**
 * A workspace tree shaped like the forum's: an app (its own build script, run through npm as the
 * real apps' `vite build` is) that depends on a library workspace. The build counts its runs, and
 * fails loudly when the app's source says BROKEN.
 */
let root: string;
const file = (relative: string) => path.join(root, relative);
const put = async (relative: string, text: string) => {
  await mkdir(path.dirname(file(relative)), { recursive: true });
  await writeFile(file(relative), text);
};
const BUILD = `import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
const source = readFileSync('src/main.ts', 'utf8');
if (source.includes('BROKEN')) {
  for (let i = 1; i <= 120; i++) console.log('transforming line ' + i);
  console.error('error: src/main.ts is BROKEN');
  process.exit(1);
}
mkdirSync('dist', { recursive: true });
writeFileSync('dist/index.html', '<p>' + source + '</p>');
appendFileSync('../builds.log', 'built\\n');
`;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'forum-web-apps-'));
  await put('package.json', JSON.stringify({ name: 'tree', private: true, workspaces: ['lib', 'app'] }));
  await put('package-lock.json', '{"lockfileVersion":3}');
  await put('lib/package.json', JSON.stringify({ name: '@forum/lib', version: '0.1.0' }));
  await put('lib/src/index.ts', 'export const greeting = "hello";');
  await put('lib/src/index.unit.test.ts', 'it("greets", () => {});');
  await put(
    'app/package.json',
    JSON.stringify({ name: '@forum/app', version: '0.1.0', dependencies: { '@forum/lib': '0.1.0' }, scripts: { build: 'node build.mjs' } }),
  );
  await put('app/build.mjs', BUILD);
  await put('app/src/main.ts', 'import { greeting } from "@forum/lib";');
});
afterAll(() => rm(root, { recursive: true, force: true }));

async function run(options: { env?: NodeJS.ProcessEnv; force?: boolean } = {}) {
  let printed = '';
  const ok = await buildWebApps({ root, apps: ['app'], env: options.env ?? {}, force: options.force, write: (text) => (printed += text) });
  return { ok, printed };
}
const builds = async () => (existsSync(file('builds.log')) ? (await readFile(file('builds.log'), 'utf8')).split('\n').length - 1 : 0);
const BUILT = /^Building the web apps \(app\)… done in \d+(\.\d)? s\n$/;
const UP_TO_DATE = 'Web apps are up to date.\n';

describe('#28.17 building the web apps before the forum starts', () => {
  it('#28.17 builds a web app only when its sources changed, in one line, and shows the build’s output only when it fails', { timeout: 60_000 }, async () => {
    // no dist yet: built, in one line
    expect(await run()).toEqual({ ok: true, printed: matching(BUILT) });
    expect(await builds()).toBe(1);
    // nothing changed: not built
    expect(await run()).toEqual({ ok: true, printed: UP_TO_DATE });
    // a test file is not part of the app
    await appendFile(file('lib/src/index.unit.test.ts'), '\n// another case');
    expect((await run()).printed).toBe(UP_TO_DATE);
    expect(await builds()).toBe(1);

    // what the app is built from: its workspace, the workspaces it imports, the lockfile, VITE_ variables
    for (const change of [
      () => appendFile(file('lib/src/index.ts'), '\nexport const bye = "bye";'),
      () => appendFile(file('app/src/main.ts'), '\nconsole.log(greeting);'),
      () => put('app/.env.production', 'VITE_TITLE=Forum'),
      () => writeFile(file('package-lock.json'), '{"lockfileVersion":3,"packages":{}}'),
    ]) {
      await change();
      expect((await run()).printed).toMatch(BUILT);
      expect((await run()).printed).toBe(UP_TO_DATE);
    }
    expect(await builds()).toBe(5);
    expect((await run({ env: { VITE_OIDC_URL: 'https://sso.example.com' } })).printed).toMatch(BUILT);
    expect((await run({ env: { VITE_OIDC_URL: 'https://sso.example.com', HOME: '/elsewhere' } })).printed).toBe(UP_TO_DATE);
    expect(await builds()).toBe(6);

    // dist removed: built again; asked to: built again
    await rm(file('app/dist'), { recursive: true });
    expect((await run()).printed).toMatch(BUILT);
    expect((await run({ force: true })).printed).toMatch(BUILT);
    expect(await builds()).toBe(8);

    // a failing build: all it printed, after the line; and never taken as up to date
    await appendFile(file('app/src/main.ts'), '\nBROKEN');
    const failed = await run();
    expect(failed.ok).toBe(false);
    expect(failed.printed).toMatch(/^Building the web apps \(app\)… failed after \d+(\.\d)? s\n/);
    expect(failed.printed).toContain('transforming line 1\n');
    expect(failed.printed).toContain('transforming line 120\n');
    expect(failed.printed).toContain('error: src/main.ts is BROKEN');
    expect((await run()).ok).toBe(false);
    await writeFile(file('app/src/main.ts'), 'import { greeting } from "@forum/lib";');
    expect((await run()).printed).toMatch(BUILT);
    expect(await builds()).toBe(9);
  });
});
