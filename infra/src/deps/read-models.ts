import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { forumModules, sourceFiles } from './workspace-graph.ts';

/** A read model as the layering check sees it: its projection's name (also its folder in projections/src) and the views it publishes in the `read` schema. */
export interface ReadModel {
  readonly projection: string;
  readonly views: readonly string[];
}

/**
 * The `read.<view>` names in a source file's string literals and templates (SQL), parsed, so code
 * that only looks like one (`read.version` of a variable) does not count. Quoted spellings count too.
 */
export function readModelNames(source: string, fileName = 'file.ts'): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false, fileName.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found = new Set<string>();
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      for (const match of node.text.matchAll(/(?<![\w.])"?read"?\s*\.\s*"?([a-z_][a-z0-9_]*)"?/gi)) found.add(match[1]!.toLowerCase());
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return [...found];
}

/**
 * Where a read model is named outside its own projection and the query side, one sentence a line:
 * the write side, the composition and the tools meet the read side through the log and the query
 * side's HTTP API, never its tables. `readers`: the other files that may (paths from `root`).
 */
export function readModelProblems(root: string, workspaces: readonly string[], models: readonly ReadModel[], readers: readonly RegExp[]): string[] {
  const owners = new Map(models.flatMap((model) => model.views.map((view) => [view, model.projection] as const)));
  const problems: string[] = [];
  for (const workspace of workspaces) {
    for (const file of sourceFiles(path.join(root, workspace))) {
      const relative = path.relative(root, file).split(path.sep).join('/');
      const source = readFileSync(file, 'utf8');
      if (!/read"?\s*\./i.test(source)) continue;
      for (const view of readModelNames(source, file)) {
        const owner = owners.get(view);
        if (owner === undefined || relative.startsWith(`projections/src/${owner}/`) || readers.some((reader) => reader.test(relative))) continue;
        problems.push(
          `${relative} names the read model read.${view} (the ${owner} projection's): only that projection and the query side may (infra/src/deps/layers.ts)`,
        );
      }
    }
  }
  return problems;
}

/**
 * Where the query side imports the projections other than through `allowed` (their read-model
 * entry: names, status and page reads, no builder), one sentence a line.
 */
export function projectionImportProblems(root: string, allowed: string): string[] {
  const problems: string[] = [];
  for (const file of sourceFiles(path.join(root, 'query-service'))) {
    const source = readFileSync(file, 'utf8');
    if (!source.includes('@forum/projections')) continue;
    for (const module of forumModules(source, file)) {
      if (module.startsWith('@forum/projections') && module !== allowed) {
        problems.push(
          `${path.relative(root, file).split(path.sep).join('/')} imports ${module}: the query side imports only ${allowed} (no builder of the projections)`,
        );
      }
    }
  }
  return problems;
}
