import { execFile } from 'node:child_process';
import { DEPENDENCY_SECTIONS as SECTIONS, readWorkspaces } from './tree.ts';

export interface Outdated {
  readonly name: string;
  readonly current: string;
  readonly latest: string;
  /** The workspaces that depend on it. */
  readonly dependents: readonly string[];
}

export type NpmOutdated = Record<
  string,
  { current?: string; latest?: string; dependent?: string } | { current?: string; latest?: string; dependent?: string }[]
>;

const major = (version: string | undefined) => Number(/^(\d+)/.exec(version ?? '')?.[1] ?? NaN);

/** The rows of `npm outdated --json` whose latest release is a new major version, one per package and version, with its dependents. */
export function newMajors(parsed: NpmOutdated): Outdated[] {
  const rows = Object.entries(parsed).flatMap(([name, found]) => (Array.isArray(found) ? found : [found]).map((row) => ({ name, ...row })));
  const byName = new Map<string, Outdated>();
  for (const row of rows) {
    if (!row.current || !row.latest || !(major(row.latest) > major(row.current))) continue;
    const key = `${row.name}@${row.current}`;
    const dependents = [...(byName.get(key)?.dependents ?? []), ...(row.dependent ? [row.dependent] : [])];
    byName.set(key, { name: row.name, current: row.current, latest: row.latest, dependents });
  }
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * The direct dependencies of every workspace whose latest release is a new major version, from
 * `npm outdated` (which asks the registry). A report only: a major upgrade is a decision, not a
 * failure. Rejects when npm cannot answer (no network).
 */
export function outdatedMajors(root: string): Promise<Outdated[]> {
  const { workspaces } = readWorkspaces(root);
  const ours = new Set(workspaces.map((workspace) => workspace.manifest.name));
  // named, so that npm asks the registry about these and not about the workspaces (not published)
  const names = [...new Set(workspaces.flatMap(({ manifest }) => SECTIONS.flatMap((section) => Object.keys(manifest[section] ?? {}))))]
    .filter((name) => !ours.has(name))
    .sort();
  return new Promise((resolve, reject) => {
    // npm outdated exits 1 when anything is outdated: its JSON on stdout is the answer either way
    execFile(
      'npm',
      ['outdated', '--json', '--workspaces', '--include-workspace-root', ...names],
      { cwd: root, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        let parsed: NpmOutdated;
        try {
          parsed = JSON.parse(stdout || '{}') as NpmOutdated;
        } catch {
          reject(new Error(stderr.trim() || error?.message || 'npm outdated gave no JSON'));
          return;
        }
        if ('error' in parsed) reject(new Error(JSON.stringify(parsed.error)));
        else resolve(newMajors(parsed));
      },
    );
  });
}
