import { DEPENDENCY_SECTIONS as SECTIONS, type DependencyTree, type LockEntry } from './tree.ts';

/** An exact version: what `npm install -E` writes. */
const EXACT = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;

/**
 * The lockfile and the package.json files hold what the project installs, and nothing else:
 *   - every workspace's package.json (the root's too) pins each dependency to an exact version:
 *     no range, tag, git, file, link or URL;
 *   - the lockfile is version 3 and records those same dependencies for each workspace (what npm ci installs);
 *   - every locked package comes from the registry with a sha512 integrity hash: no `resolved`
 *     (npm omits the registry's address here) or one at `registry`, never git, a file or another host;
 *   - a linked package is one of the workspaces.
 * Returns one line per problem.
 */
export function checkLockfile(tree: DependencyTree, registry: string): string[] {
  const problems: string[] = [];
  if (tree.lock.lockfileVersion !== 3) problems.push(`package-lock.json is lockfile version ${tree.lock.lockfileVersion}, not 3`);
  for (const { dir, manifest } of tree.workspaces) {
    const where = `${dir || '.'}/package.json`;
    const locked: LockEntry | undefined = tree.lock.packages[dir];
    if (!locked) problems.push(`${where}: the lockfile has no entry for this workspace`);
    for (const section of SECTIONS) {
      for (const [name, spec] of Object.entries(manifest[section] ?? {})) {
        if (!EXACT.test(spec)) problems.push(`${where}: ${section} ${name} "${spec}" is not an exact version`);
        if (locked && locked[section]?.[name] !== spec)
          problems.push(`${where}: ${section} ${name} "${spec}" is not what the lockfile records (${locked[section]?.[name] ?? 'nothing'})`);
      }
      for (const name of Object.keys(locked?.[section] ?? {})) {
        if (!(name in (manifest[section] ?? {}))) problems.push(`${where}: the lockfile records ${section} ${name}, which package.json does not have`);
      }
    }
  }
  const workspaceDirs = new Set(tree.workspaces.map((workspace) => workspace.dir));
  for (const [location, entry] of Object.entries(tree.lock.packages)) {
    if (location === '' || workspaceDirs.has(location)) continue;
    if (entry.link) {
      if (!entry.resolved || !workspaceDirs.has(entry.resolved))
        problems.push(`${location}: a link to ${entry.resolved ?? 'nothing'}, which is not a workspace`);
      continue;
    }
    if (!location.includes('node_modules/')) {
      problems.push(`${location}: a package outside node_modules that is not a workspace`);
      continue;
    }
    if (entry.resolved !== undefined && !entry.resolved.startsWith(registry)) problems.push(`${location}: resolved from ${entry.resolved}, not the registry`);
    if (!entry.integrity) problems.push(`${location}: no integrity hash`);
    else if (!entry.integrity.split(/\s+/).some((hash) => hash.startsWith('sha512-')))
      problems.push(`${location}: integrity ${entry.integrity.slice(0, 12)}… is not sha512`);
    if (!entry.version) problems.push(`${location}: no version`);
  }
  return problems;
}
