import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { allProjections } from '@forum/projections';
import { describe, expect, it } from 'vitest';
import { fileCycles } from './file-cycles.ts';
import { LAYERS, READ_MODEL_READERS } from './layers.ts';
import { projectionImportProblems, readModelNames, readModelProblems } from './read-models.ts';
import { findCycle, forumImports, layeringProblems, readWorkspaces, type Workspace } from './workspace-graph.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

describe("the project's workspaces", () => {
  it('each declares every @forum workspace it imports and no other, only from layers below its own, in layer order, without a circle', () => {
    const workspaces = readWorkspaces(root);
    expect(workspaces.length).toBeGreaterThan(8);
    expect(layeringProblems(workspaces, LAYERS)).toEqual([]);
  });

  it('name a read model (a view of the read schema) only in its own projection and on the query side', () => {
    const models = allProjections.map((projection) => ({ projection: projection.name, views: Object.keys(projection.exposes) }));
    expect(models.flatMap((model) => model.views)).toContain('users');
    expect(
      readModelProblems(
        root,
        readWorkspaces(root).map((ws) => ws.name),
        models,
        READ_MODEL_READERS,
      ),
    ).toEqual([]);
  });

  it("keep the query side to the projections' read-model entry: no builder of theirs", () => {
    expect(projectionImportProblems(root, '@forum/projections/read-model')).toEqual([]);
  });

  it('hold no circle of files inside a workspace, counting type-only and dynamic imports', () => {
    const workspaces = readWorkspaces(root);
    expect(workspaces.flatMap((workspace) => fileCycles(root, path.join(root, workspace.name)))).toEqual([]);
  });
});

describe('the circles check', () => {
  it('finds a circle of files made by a type-only import and a dynamic one, and none in a tree', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cycles-'));
    try {
      mkdirSync(path.join(dir, 'src', 'toast'), { recursive: true });
      writeFileSync(path.join(dir, 'src', 'toast', 'Provider.tsx'), "const Snackbar = lazy(() => import('./Snackbar'));\nimport { place } from '../place.ts';");
      writeFileSync(path.join(dir, 'src', 'toast', 'Snackbar.tsx'), "import type { Toast } from './Provider';\nimport { place } from '../place.ts';");
      writeFileSync(path.join(dir, 'src', 'place.ts'), 'export const place = 1;');
      writeFileSync(path.join(dir, 'src', 'alone.ts'), "import { place } from './place.ts';");
      expect(fileCycles(dir, dir)).toEqual([['src/toast/Provider.tsx', 'src/toast/Snackbar.tsx']]);
      writeFileSync(path.join(dir, 'src', 'toast', 'Snackbar.tsx'), "import { place } from '../place.ts';");
      expect(fileCycles(dir, dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

const ws = (name: string, declared: string[], imported: string[] = declared): Workspace => ({
  name,
  declared,
  imported: new Map(imported.map((target) => [target, [`${name}/src/a.ts`]])),
});

describe('the layering check', () => {
  const layers = { server: [['contracts'], ['platform'], ['command-service', 'projections'], ['infra']], web: [['contracts'], ['forum-web']] };

  it('accepts imports from layers below, declared', () => {
    expect(
      layeringProblems(
        [ws('contracts', []), ws('platform', ['contracts']), ws('projections', ['platform', 'contracts']), ws('infra', ['projections'])],
        layers,
      ),
    ).toEqual([]);
  });

  it('names a workspace in no layer', () => {
    expect(layeringProblems([ws('contracts', []), ws('identity', ['contracts'])], layers)).toEqual([
      '@forum/identity is in no layer: add it to the layers in infra/src/deps/layers.ts',
    ]);
  });

  it('names an import that package.json does not declare, and a declaration nothing imports', () => {
    expect(layeringProblems([ws('contracts', []), ws('platform', ['contracts'], []), ws('projections', [], ['platform'])], layers)).toEqual([
      '@forum/platform declares @forum/contracts in platform/package.json but imports nothing from it',
      '@forum/projections imports @forum/platform without declaring it in projections/package.json (projections/src/a.ts)',
    ]);
  });

  it('names a dependency on the same layer, a higher one, or the other stack, and the circle', () => {
    expect(
      layeringProblems(
        [
          ws('contracts', []),
          ws('command-service', ['contracts']),
          ws('projections', ['command-service']),
          ws('forum-web', ['platform']),
          ws('platform', ['projections']),
        ],
        layers,
      ),
    ).toEqual([
      '@forum/projections depends on @forum/command-service, which is not in a layer below it (infra/src/deps/layers.ts)',
      '@forum/forum-web depends on @forum/platform, which is not in a layer below it (infra/src/deps/layers.ts)',
      '@forum/platform depends on @forum/projections, which is not in a layer below it (infra/src/deps/layers.ts)',
      'the root package.json lists @forum/forum-web before @forum/platform, which it depends on: list workspaces in layer order',
    ]);
    expect(findCycle([ws('a', ['b']), ws('b', ['c']), ws('c', ['a'])])).toEqual(['a', 'b', 'c', 'a']);
    expect(findCycle([ws('a', ['b']), ws('b', []), ws('c', ['a', 'b'])])).toBeNull();
  });

  it('finds static, dynamic, type-only and mocked imports, and not text that only looks like one', () => {
    const source = [
      "import { a } from '@forum/contracts';",
      "import type { B } from '@forum/platform/testing';",
      "export { c } from '@forum/eventstore';",
      "const d = await import('@forum/projections');",
      "vi.mock('@forum/command-service', () => ({}));",
      "type E = import('@forum/query-service').E;",
      'const fixture = \'import { greeting } from "@forum/lib";\';',
      "import { f } from './local.ts';",
    ].join('\n');
    expect(forumImports(source).sort()).toEqual(['command-service', 'contracts', 'eventstore', 'platform', 'projections', 'query-service']);
  });
});

describe('the read models check', () => {
  it('finds read.<view> in SQL strings and templates, quoted or not, and not in code', () => {
    const source = [
      "const a = 'SELECT id FROM read.users WHERE email = ?';",
      'const b = `SELECT * FROM ${schema}.x JOIN "read"."Posts" p ON true`;',
      'const c = `x ${y} LEFT JOIN read . comments c`;',
      'const d = read.version + thread.users + spread.posts;',
      "const e = 'already.read.tags';",
    ].join('\n');
    expect(readModelNames(source).sort()).toEqual(['comments', 'posts', 'users']);
  });

  it('names a file outside the projection and the query side, and accepts those two', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'read-models-'));
    try {
      const write = (file: string, text: string) => {
        mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
        writeFileSync(path.join(root, file), text);
      };
      write('command-service/src/lookup.ts', "db.raw('SELECT id FROM read.users WHERE lower(email) = lower(?)');");
      write('projections/src/users/store.ts', "trx.raw('SELECT 1 FROM read.users');");
      write('projections/src/posts/join.ts', "trx.raw('SELECT 1 FROM read.users');");
      write('query-service/src/store/users.ts', "db.raw('SELECT * FROM read.users');");
      write('query-service/src/store/other.ts', "db.raw('SELECT * FROM read.unknown');");
      const models = [{ projection: 'users', views: ['users'] }];
      expect(readModelProblems(root, ['command-service', 'projections', 'query-service'], models, [/^query-service\/src\//])).toEqual([
        "command-service/src/lookup.ts names the read model read.users (the users projection's): only that projection and the query side may (infra/src/deps/layers.ts)",
        "projections/src/posts/join.ts names the read model read.users (the users projection's): only that projection and the query side may (infra/src/deps/layers.ts)",
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
