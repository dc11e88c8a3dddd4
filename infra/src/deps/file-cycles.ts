import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { moduleSpecifiers, sourceFiles } from './workspace-graph.ts';

const EXTENSIONS = ['', '.ts', '.tsx', '/index.ts', '/index.tsx'];

/**
 * The circles of files inside `dir` (a workspace): a file importing a file that imports it back,
 * directly or through others. Every relative import counts, type-only and dynamic ones too: a
 * lazy chunk that takes its types from the file that loads it is a circle as well. Each circle
 * is its files, relative to `root`, sorted; none when there is none.
 */
export function fileCycles(root: string, dir: string): string[][] {
  const edges = new Map<string, string[]>();
  for (const file of sourceFiles(dir)) {
    const targets = moduleSpecifiers(readFileSync(file, 'utf8'), file)
      .filter((module) => module.startsWith('./') || module.startsWith('../'))
      .map((module) => resolveRelative(file, module))
      .filter((target): target is string => target !== null);
    edges.set(file, targets);
  }
  return stronglyConnected(edges)
    .filter((component) => component.length > 1 || (edges.get(component[0]!) ?? []).includes(component[0]!))
    .map((component) => component.map((file) => path.relative(root, file)).sort());
}

function resolveRelative(from: string, module: string): string | null {
  const base = path.resolve(path.dirname(from), module);
  for (const candidate of [...EXTENSIONS.map((ext) => base + ext), base.replace(/\.js$/, '.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** Tarjan's strongly connected components of a graph given as adjacency lists. */
function stronglyConnected(edges: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      components.push(component);
    }
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return components;
}
