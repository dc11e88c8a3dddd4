import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import ts from 'typescript';
import { root } from './deploy-files.ts';

interface Manifest {
  name: string;
  exports?: Record<string, string | Record<string, string>>;
  dependencies?: Record<string, string>;
}

/** What the compiled processes load, read from the files `npm run build` wrote. */
export interface CompiledGraph {
  /** Every file reached, relative to the repository's root. */
  readonly files: string[];
  /** Each import that the image could not satisfy: a source file, a test-only export, a package the workspace does not depend on. */
  readonly problems: string[];
}

const manifests = new Map<string, Manifest>();
const manifest = (workspace: string) => {
  let found = manifests.get(workspace);
  if (!found) manifests.set(workspace, (found = JSON.parse(readFileSync(path.join(root, workspace, 'package.json'), 'utf8')) as Manifest));
  return found;
};
const workspaceOf = (file: string) => path.relative(root, file).split(path.sep)[0]!;
const packageName = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/**
 * The import graph of the compiled entries as node resolves it under the `forum-compiled` condition
 * (the image's): relative imports and `@forum/*` workspaces followed file by file, packages checked
 * against the `dependencies` of the workspace whose file imports them, which are all that
 * `npm prune --omit=dev` leaves in the image. Static imports and dynamic ones with a literal path.
 */
export function compiledGraph(entries: readonly string[]): CompiledGraph {
  const problems: string[] = [];
  const seen = new Set<string>();
  const pending = entries.map((entry) => path.resolve(root, entry));
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const from = path.relative(root, file);
    if (!/^[^/]+\/dist\/.+\.js$/.test(from)) {
      problems.push(`${from}: not a compiled file of a workspace's dist/`);
      continue;
    }
    if (!existsSync(file)) {
      problems.push(`${from}: missing (npm run build)`);
      continue;
    }
    const text = readFileSync(file, 'utf8');
    for (const { fileName: specifier } of ts.preProcessFile(text, true, true).importedFiles) {
      if (specifier.startsWith('.')) pending.push(path.resolve(path.dirname(file), specifier));
      else if (specifier.startsWith('node:') || builtinModules.includes(specifier)) continue;
      else if (specifier.startsWith('@forum/')) {
        const workspace = packageName(specifier).slice('@forum/'.length);
        const target = manifest(workspace).exports?.[`.${specifier.slice(packageName(specifier).length)}`];
        const compiled = typeof target === 'object' ? target['forum-compiled'] : undefined;
        if (compiled) pending.push(path.join(root, workspace, compiled));
        else problems.push(`${from}: imports ${specifier}, which has no compiled export`);
      } else if (!manifest(workspaceOf(file)).dependencies?.[packageName(specifier)])
        problems.push(`${from}: imports ${specifier}, not in the dependencies of ${manifest(workspaceOf(file)).name}`);
    }
  }
  return { files: [...seen].map((file) => path.relative(root, file)).sort(), problems };
}
