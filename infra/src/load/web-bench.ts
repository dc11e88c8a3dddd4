/**
 * `npm run bench -- web`: builds forum-web (and admin-web) into a temporary folder and prints
 * what a browser downloads: the initial JavaScript of the home page (gzip), what each library
 * costs in it, and the code each route adds when it is first opened. Fails (exit 1) when the
 * home page's initial JavaScript is over WEB_BUDGET_KB (200) or a route pulls in another route's
 * code.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Plugin } from 'vite';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const budgetKb = Number(process.env.WEB_BUDGET_KB ?? 200);

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

async function analyse(app: string): Promise<{ initial: number; problems: string[] }> {
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
  const routeOf = (c: ChunkInfo) =>
    c.isDynamicEntry && c.facade && /[\\/]app[\\/]routes[\\/]/.test(c.facade) ? path.basename(c.facade).replace(/\.tsx?$/, '') : null;
  const routes = [...chunks.values()].filter((c) => routeOf(c) !== null);
  const home = routes.find((c) => routeOf(c) === 'home');
  // the home page runs its route's chunk at once: it is part of its initial JavaScript
  const homeChunks = new Set([...initialChunks, ...(home ? closure(chunks, home.fileName) : [])]);
  const sum = (names: Iterable<string>) => [...names].reduce((a, n) => a + chunks.get(n)!.gzip, 0);
  const initial = sum(homeChunks);

  console.log(`\n${app}: ${chunks.size} JavaScript chunks, ${routes.length} lazy routes`);
  console.log(`  initial JavaScript of the home page: ${kb(initial)} gzip (${homeChunks.size} files; budget ${budgetKb} KB)`);
  const libs = [...byLibrary(chunks, homeChunks)].sort((a, b) => b[1] - a[1]);
  for (const [lib, bytes] of libs.filter(([, b]) => b >= 512)) console.log(`    ${lib.padEnd(34)} ${kb(bytes).padStart(9)}`);
  const small = libs.filter(([, b]) => b < 512);
  if (small.length) console.log(`    ${`${small.length} others`.padEnd(34)} ${kb(small.reduce((a, [, b]) => a + b, 0)).padStart(9)}`);

  if (process.env.WEB_BENCH_CHUNKS) {
    for (const n of homeChunks) console.log(`      ${kb(chunks.get(n)!.gzip).padStart(9)}  ${n}`);
  }
  if (process.env.WEB_BENCH_MODULES) {
    // WEB_BENCH_MODULES=<n>: the n largest modules of the home page's initial load (rendered, before gzip)
    const modules = [...homeChunks].flatMap((n) => Object.entries(chunks.get(n)!.modules)).sort((a, b) => b[1] - a[1]);
    for (const [id, size] of modules.slice(0, Number(process.env.WEB_BENCH_MODULES)))
      console.log(`      ${kb(size).padStart(9)}  ${path.relative(root, id.replace(/\0/g, ''))}`);
  }

  const problems: string[] = [];
  if (routes.length) {
    console.log('  each route, when first opened after the entry (gzip it adds):');
    for (const route of routes.sort((a, b) => routeOf(a)!.localeCompare(routeOf(b)!))) {
      const own = closure(chunks, route.fileName);
      console.log(`    ${routeOf(route)!.padEnd(34)} ${kb(sum([...own].filter((n) => !initialChunks.has(n)))).padStart(9)}`);
      for (const other of routes) {
        if (other !== route && own.has(other.fileName)) problems.push(`route ${routeOf(route)} loads route ${routeOf(other)}'s chunk`);
      }
    }
  }
  return { initial, problems };
}

const forum = await analyse('forum-web');
const admin = await analyse('admin-web');
const problems = [...forum.problems, ...admin.problems];
if (forum.initial > budgetKb * 1024) problems.push(`forum-web's home page loads ${kb(forum.initial)} of JavaScript, over the ${budgetKb} KB budget`);
for (const problem of problems) console.log(`FAIL: ${problem}`);
if (!problems.length) console.log(`\nOK: forum-web's home page within ${budgetKb} KB gzip, no route loads another route's code`);
process.exitCode = problems.length ? 1 : 0;
