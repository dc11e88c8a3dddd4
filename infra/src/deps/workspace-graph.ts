import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** The scope every workspace's package name has: `@forum/<folder>`. */
const SCOPE = '@forum/';
const SOURCE = /\.(?:[cm]?ts|tsx|[cm]?js|jsx)$/;
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'dist-server', 'coverage']);

export interface Workspace {
  /** The name after `@forum/` (also its folder). */
  readonly name: string;
  /** The `@forum/*` workspaces its package.json declares (dependencies, devDependencies, peerDependencies). */
  readonly declared: readonly string[];
  /** Each `@forum/*` workspace its source files import (tests and scripts included), with the files that do. */
  readonly imported: ReadonlyMap<string, readonly string[]>;
}

/** The workspaces of the root package.json, in the order it lists them. */
export function readWorkspaces(root: string): Workspace[] {
  const rootPackage = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { workspaces: string[] };
  return rootPackage.workspaces.map((folder) => {
    const dir = path.join(root, folder);
    const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
    const name = String(pkg.name).replace(SCOPE, '');
    const declared = ['dependencies', 'devDependencies', 'peerDependencies']
      .flatMap((field) => Object.keys((pkg[field] as Record<string, string> | undefined) ?? {}))
      .filter((dep) => dep.startsWith(SCOPE))
      .map((dep) => dep.slice(SCOPE.length));
    const imported = new Map<string, string[]>();
    for (const file of sourceFiles(dir)) {
      const source = readFileSync(file, 'utf8');
      if (!source.includes(SCOPE)) continue;
      for (const target of forumImports(source, file)) {
        if (target === name) continue; // a package may import itself through its own exports
        imported.set(target, [...(imported.get(target) ?? []), path.relative(root, file)]);
      }
    }
    return { name, declared: [...new Set(declared)], imported };
  });
}

/** The source files under `dir` (not in node_modules, dist, coverage or a hidden folder). */
export function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIPPED_FOLDERS.has(entry.name) && !entry.name.startsWith('.')) yield* sourceFiles(path.join(dir, entry.name));
    } else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) yield path.join(dir, entry.name);
  }
}

/**
 * The `@forum/*` workspaces a source file names as modules: static `import`/`export … from`, `import()`,
 * `import x = require()`, `require()`, type imports, and `vi.mock`/`vi.doMock`. Parsed, so text that
 * only looks like an import (a string a test writes to a file) does not count.
 */
export function forumImports(source: string, fileName = 'file.ts'): string[] {
  return [...new Set(forumModules(source, fileName).map((module) => module.slice(SCOPE.length).split('/')[0]!))];
}

/** The `@forum/*` modules a source file names, whole (`@forum/projections/read-model`), found as `forumImports` finds them. */
export function forumModules(source: string, fileName = 'file.ts'): string[] {
  return moduleSpecifiers(source, fileName).filter((module) => module.startsWith(SCOPE));
}

/** Every module a source file names, found as `forumImports` finds them (`./x.ts`, `react`, `@forum/contracts`…). */
export function moduleSpecifiers(source: string, fileName = 'file.ts'): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false, fileName.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found = new Set<string>();
  const note = (node: ts.Node | undefined) => {
    if (node && ts.isStringLiteralLike(node)) found.add(node.text);
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) note(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) note(node.moduleReference.expression);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) note(node.argument.literal);
    else if (ts.isCallExpression(node) && isModuleCall(node.expression)) note(node.arguments[0]);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return [...found];
}

function isModuleCall(callee: ts.Expression): boolean {
  if (callee.kind === ts.SyntaxKind.ImportKeyword) return true;
  if (ts.isIdentifier(callee)) return callee.text === 'require';
  return (
    ts.isPropertyAccessExpression(callee) &&
    ts.isIdentifier(callee.expression) &&
    callee.expression.text === 'vi' &&
    ['mock', 'doMock'].includes(callee.name.text)
  );
}

/** For each workspace in `layers`, the workspaces it may depend on: those in lower layers of every stack it is in. */
export function allowedBelow(layers: Readonly<Record<string, readonly (readonly string[])[]>>): Map<string, Set<string>> {
  const allowed = new Map<string, Set<string>>();
  for (const stack of Object.values(layers)) {
    stack.forEach((layer, level) => {
      const below = stack.slice(0, level).flat();
      for (const name of layer) allowed.set(name, new Set([...(allowed.get(name) ?? []), ...below]));
    });
  }
  return allowed;
}

/** What breaks the layering (`workspaces` in the root's order), one sentence a line; empty when all holds. */
export function layeringProblems(workspaces: readonly Workspace[], layers: Readonly<Record<string, readonly (readonly string[])[]>>): string[] {
  const allowed = allowedBelow(layers);
  const problems: string[] = [];
  for (const ws of workspaces) {
    const mayUse = allowed.get(ws.name);
    if (!mayUse) {
      problems.push(`@forum/${ws.name} is in no layer: add it to the layers in infra/src/deps/layers.ts`);
      continue;
    }
    for (const [target, files] of ws.imported) {
      if (!ws.declared.includes(target))
        problems.push(`@forum/${ws.name} imports @forum/${target} without declaring it in ${ws.name}/package.json (${files.join(', ')})`);
    }
    for (const target of ws.declared) {
      if (!mayUse.has(target)) problems.push(`@forum/${ws.name} depends on @forum/${target}, which is not in a layer below it (infra/src/deps/layers.ts)`);
      if (!ws.imported.has(target)) problems.push(`@forum/${ws.name} declares @forum/${target} in ${ws.name}/package.json but imports nothing from it`);
    }
  }
  workspaces.forEach((ws, index) => {
    const later = ws.declared.filter((target) => workspaces.findIndex((other) => other.name === target) > index);
    if (later.length)
      problems.push(
        `the root package.json lists @forum/${ws.name} before ${later.map((name) => `@forum/${name}`).join(', ')}, which it depends on: list workspaces in layer order`,
      );
  });
  const cycle = findCycle(workspaces);
  if (cycle) problems.push(`a circle between workspaces: ${cycle.map((name) => `@forum/${name}`).join(' → ')}`);
  return problems;
}

/** A circle among the workspaces' dependencies (declared or imported), as the path that closes it; null when there is none. */
export function findCycle(workspaces: readonly Workspace[]): string[] | null {
  const edges = new Map(workspaces.map((ws) => [ws.name, new Set([...ws.declared, ...ws.imported.keys()])]));
  const done = new Set<string>();
  const walk = (name: string, trail: string[]): string[] | null => {
    const at = trail.indexOf(name);
    if (at >= 0) return [...trail.slice(at), name];
    if (done.has(name)) return null;
    for (const next of edges.get(name) ?? []) {
      const cycle = walk(next, [...trail, name]);
      if (cycle) return cycle;
    }
    done.add(name);
    return null;
  };
  for (const ws of workspaces) {
    const cycle = walk(ws.name, []);
    if (cycle) return cycle;
  }
  return null;
}
