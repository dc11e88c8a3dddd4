/**
 * `npm run bench -- web`: builds forum-web and admin-web into a temporary folder and prints what a
 * browser downloads: the initial JavaScript (gzip) with what each library costs in it, and the code
 * each route or page adds when it is first opened. For admin-web: its first load (what /admin loads
 * before it knows who is there, all a visitor loads before the realm's page), the console a
 * signed-in member then loads, and an admin's first screen: everything fetched until the dashboard
 * shows (the first load, keycloak-js, the console and the dashboard; its chart comes after). Fails
 * (exit 1) when forum-web's home page is over WEB_BUDGET_KB (200), an admin's first screen over
 * ADMIN_WEB_BUDGET_KB (250), or a route pulls in another route's code.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Plugin } from 'vite';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const budgetKb = Number(process.env.WEB_BUDGET_KB ?? 200);
const adminBudgetKb = Number(process.env.ADMIN_WEB_BUDGET_KB ?? 250);

interface ChunkInfo {
  fileName: string;
  isEntry: boolean;
  isDynamicEntry: boolean;
  facade: string | null;
  imports: string[];
  dynamicImports: string[];
  gzip: number;
  /** rendered bytes of each module in the chunk, by module id */
  modules: Record<string, number>;
}

/** Collects every JS chunk of the build with its gzip size and modules. */
function chunkCollector(into: Map<string, ChunkInfo>): Plugin {
  return {
    name: 'forum-bench-chunks',
    generateBundle(_options, bundle) {
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue;
        into.set(output.fileName, {
          fileName: output.fileName,
          isEntry: output.isEntry,
          isDynamicEntry: output.isDynamicEntry,
          facade: output.facadeModuleId,
          imports: output.imports,
          dynamicImports: output.dynamicImports,
          gzip: gzipSync(output.code).length,
          modules: Object.fromEntries(Object.entries(output.modules).map(([id, m]) => [id, m.renderedLength])),
        });
      }
    },
  };
}

/** The chunk and every chunk it imports statically (what the browser loads before it runs). */
function closure(chunks: Map<string, ChunkInfo>, start: string): Set<string> {
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    for (const next of chunks.get(name)?.imports ?? []) visit(next);
  };
  visit(start);
  return seen;
}

/** The library a module belongs to ('app' for the app's own code). */
function owner(id: string): string {
  const match = /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(id.replace(/\0/g, ''));
  if (match) return match[1]!.replace(/\\/g, '/');
  if (id.includes(`${path.sep}contracts${path.sep}`)) return '@forum/contracts';
  if (id.includes(`${path.sep}web-auth${path.sep}`)) return '@forum/web-auth';
  return 'app';
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** The part of a load a library stands for, as docs/performance.md sums admin-web's first load. */
function share(lib: string): string {
  if (/^(react|react-dom|scheduler|react-router|react-router-dom|cookie)$/.test(lib)) return 'React and its router';
  if (lib === 'react-admin' || lib.startsWith('ra-')) return 'react-admin';
  if (/^(@mui\/|@emotion\/|@popperjs\/)|^stylis$/.test(lib)) return 'MUI';
  if (lib === 'app' || lib.startsWith('@forum/')) return 'ours';
  return 'other libraries';
}

/** Gzip bytes of a set of chunks shared out among the libraries of their modules (by rendered size). */
function byLibrary(chunks: Map<string, ChunkInfo>, names: Iterable<string>): Map<string, number> {
  const out = new Map<string, number>();
  for (const name of names) {
    const chunk = chunks.get(name)!;
    const total = Object.values(chunk.modules).reduce((a, b) => a + b, 0) || 1;
    for (const [id, size] of Object.entries(chunk.modules)) {
      const lib = owner(id);
      out.set(lib, (out.get(lib) ?? 0) + (chunk.gzip * size) / total);
    }
  }
  return out;
}

interface Layout {
  /** the chunks that are routes or pages, opened one at a time: their name, or null */
  pageOf(chunk: ChunkInfo): string | null;
  /** the page shown first, counted in the initial load (forum-web's home) */
  home?: string;
  /** a chunk the entry loads on its own before any page (admin-web's console once signed in) */
  shell?: { name: string; test: RegExp };
  /** the first screen: the shell, the page shown first and what else loads before it (keycloak-js) */
  firstScreen?: { name: string; page: string; before: RegExp };
}

interface Load {
  name: string;
  bytes: number;
}

/** Prints a load: its size, its files, and what each library (and each part: React, MUI, ours …) costs in it. */
function report(chunks: Map<string, ChunkInfo>, title: string, names: Set<string>, budget: number | null) {
  const bytes = [...names].reduce((a, n) => a + chunks.get(n)!.gzip, 0);
  // an entry chunk with no code of its own (only imports) is left out of the build: Vite names what it imports instead
  const files = [...names].filter((n) => Object.values(chunks.get(n)!.modules).some((size) => size > 0)).length;
  console.log(`  ${title}: ${kb(bytes)} gzip (${files} ${files === 1 ? 'file' : 'files'}${budget === null ? '' : `; budget ${budget} KB`})`);
  const libs = [...byLibrary(chunks, names)].sort((a, b) => b[1] - a[1]);
  const parts = new Map<string, number>();
  for (const [lib, b] of libs) parts.set(share(lib), (parts.get(share(lib)) ?? 0) + b);
  console.log(`    by part: ${[...parts].map(([part, b]) => `${part} ${kb(b)}`).join(', ')}`);
  for (const [lib, b] of libs.filter(([, b]) => b >= 512)) console.log(`    ${lib.padEnd(34)} ${kb(b).padStart(9)}`);
  const small = libs.filter(([, b]) => b < 512);
  if (small.length) console.log(`    ${`${small.length} others`.padEnd(34)} ${kb(small.reduce((a, [, b]) => a + b, 0)).padStart(9)}`);
  if (process.env.WEB_BENCH_CHUNKS) {
    for (const n of names) console.log(`      ${kb(chunks.get(n)!.gzip).padStart(9)}  ${n}`);
  }
  if (process.env.WEB_BENCH_MODULES) {
    // WEB_BENCH_MODULES=<n>: the n largest modules of the load (rendered, before gzip)
    const modules = [...names].flatMap((n) => Object.entries(chunks.get(n)!.modules)).sort((a, b) => b[1] - a[1]);
    for (const [id, size] of modules.slice(0, Number(process.env.WEB_BENCH_MODULES)))
      console.log(`      ${kb(size).padStart(9)}  ${path.relative(root, id.replace(/\0/g, ''))}`);
  }
  return bytes;
}

async function analyse(app: string, layout: Layout): Promise<{ loads: Load[]; problems: string[] }> {
  const chunks = new Map<string, ChunkInfo>();
  const outDir = await mkdtemp(path.join(os.tmpdir(), `forum-bench-${app}-`));
  try {
    await build({
      root: path.join(root, app),
      configFile: path.join(root, app, 'vite.config.ts'),
      configLoader: 'runner',
      logLevel: 'warn',
      build: { outDir, emptyOutDir: true },
      plugins: [chunkCollector(chunks)],
    });
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }

  const entry = [...chunks.values()].find((c) => c.isEntry)!;
  const initialChunks = closure(chunks, entry.fileName);
  const pageOf = (c: ChunkInfo) => (c.isDynamicEntry ? layout.pageOf(c) : null);
  const routes = [...chunks.values()].filter((c) => pageOf(c) !== null);
  const home = routes.find((c) => pageOf(c) === layout.home);
  // the home page runs its route's chunk at once: it is part of its initial JavaScript
  const homeChunks = new Set([...initialChunks, ...(home ? closure(chunks, home.fileName) : [])]);
  // the chunk that holds the shell's module (admin-web's console is a chunk that a Rolldown group makes)
  const shell = layout.shell
    ? [...chunks.values()].find((c) => Object.keys(c.modules).some((id) => layout.shell!.test.test(id.replace(/\0/g, ''))))
    : undefined;
  if (layout.shell && !shell) throw new Error(`${app}: no chunk for ${layout.shell.name}`);
  // what a page adds is counted after what is loaded before any page
  const beforePages = shell ? new Set([...initialChunks, ...closure(chunks, shell.fileName)]) : initialChunks;
  const sum = (names: Iterable<string>) => [...names].reduce((a, n) => a + chunks.get(n)!.gzip, 0);

  console.log(`\n${app}: ${chunks.size} JavaScript chunks, ${routes.length} lazy ${shell ? 'pages' : 'routes'}`);
  const loads: Load[] = [];
  if (shell) {
    loads.push({ name: 'first load', bytes: report(chunks, 'first load, before the sign-in check (a visitor, before the realm)', homeChunks, null) });
    loads.push({ name: layout.shell!.name, bytes: report(chunks, `${layout.shell!.name} (the first load and what it then loads)`, beforePages, null) });
    const screen = layout.firstScreen;
    if (screen) {
      const page = routes.find((c) => pageOf(c) === screen.page);
      const before = [...chunks.values()].filter((c) => c.isDynamicEntry && c.facade && screen.before.test(c.facade));
      if (!page || !before.length) throw new Error(`${app}: no chunk for ${screen.name}`);
      const names = new Set([...beforePages, ...before.flatMap((c) => [...closure(chunks, c.fileName)]), ...closure(chunks, page.fileName)]);
      loads.push({ name: screen.name, bytes: report(chunks, `${screen.name} (the console, keycloak-js and the ${screen.page})`, names, adminBudgetKb) });
    }
  } else {
    loads.push({ name: 'home page', bytes: report(chunks, 'initial JavaScript of the home page', homeChunks, budgetKb) });
  }

  const problems: string[] = [];
  // a production build runs React Router's production build (web-auth/vite.ts): its package's exports name its development one
  if ([...chunks.values()].some((chunk) => Object.keys(chunk.modules).some((id) => /react-router[\\/]dist[\\/]development[\\/]/.test(id)))) {
    problems.push(`${app} carries React Router's development build`);
  }
  if (routes.length) {
    console.log(`  each ${shell ? 'page' : 'route'}, when first opened after ${shell ? 'the console' : 'the entry'} (gzip it adds):`);
    for (const route of routes.sort((a, b) => pageOf(a)!.localeCompare(pageOf(b)!))) {
      const own = closure(chunks, route.fileName);
      console.log(`    ${pageOf(route)!.padEnd(34)} ${kb(sum([...own].filter((n) => !beforePages.has(n)))).padStart(9)}`);
      if (process.env.WEB_BENCH_ROUTE === pageOf(route)) {
        const modules = [...own]
          .filter((n) => !beforePages.has(n))
          .flatMap((n) => Object.entries(chunks.get(n)!.modules))
          .sort((a, b) => b[1] - a[1]);
        for (const [id, size] of modules.slice(0, 40)) console.log(`      ${kb(size).padStart(9)}  ${path.relative(root, id.replace(/\0/g, ''))}`);
      }
      for (const other of routes) {
        if (other !== route && own.has(other.fileName)) problems.push(`route ${pageOf(route)} loads route ${pageOf(other)}'s chunk`);
      }
    }
  }
  return { loads, problems };
}

const basename = (c: ChunkInfo) => path.basename(c.facade!).replace(/\.tsx?$/, '');
const forum = await analyse('forum-web', {
  pageOf: (c) => (c.facade && /[\\/]app[\\/]routes[\\/]/.test(c.facade) ? basename(c) : null),
  home: 'home',
});
const admin = await analyse('admin-web', {
  // the console's pages: each resource's list, the dashboard (a moderator's home), history, announcements;
  // not what a page loads later (the dashboard's chart, its delete confirmation, a taken tag's details)
  pageOf: (c) =>
    c.facade && /[\\/]admin-web[\\/]src[\\/]resources[\\/]/.test(c.facade) && !/(StatsChart|DeleteTagConfirm|tagExistsDetails)\.tsx?$/.test(c.facade)
      ? basename(c)
      : null,
  shell: { name: "a signed-in member's console", test: /[\\/]admin-web[\\/]src[\\/]mountConsole\.tsx$/ },
  firstScreen: { name: "an admin's first screen", page: 'Dashboard', before: /[\\/]node_modules[\\/]keycloak-js[\\/]/ },
});
const problems = [...forum.problems, ...admin.problems];
const over = (load: Load | undefined, budget: number, what: string) => {
  if (load && load.bytes > budget * 1024) problems.push(`${what} loads ${kb(load.bytes)} of JavaScript, over the ${budget} KB budget`);
};
over(forum.loads[0], budgetKb, "forum-web's home page");
over(admin.loads[2], adminBudgetKb, "an admin's first screen of admin-web");
for (const problem of problems) console.log(`FAIL: ${problem}`);
if (!problems.length)
  console.log(
    `\nOK: forum-web's home page within ${budgetKb} KB gzip, an admin's first screen of admin-web within ${adminBudgetKb} KB, no route loads another route's code`,
  );
process.exitCode = problems.length ? 1 : 0;
