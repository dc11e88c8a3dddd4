import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * What the dependency checks read: the root package.json, each workspace's, the lockfile, and the
 * package.json of each package installed under node_modules. Read once; the checks only look.
 */

export interface Manifest {
  name?: string;
  version?: string;
  private?: boolean;
  license?: string | { type?: string };
  licenses?: { type?: string }[];
  workspaces?: string[];
  allowScripts?: Record<string, boolean>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

/** An entry of the lockfile's `packages` (lockfile version 3). */
export interface LockEntry {
  name?: string;
  version?: string;
  resolved?: string;
  integrity?: string;
  link?: boolean;
  license?: string;
  hasInstallScript?: boolean;
  optional?: boolean;
  dev?: boolean;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

/** A package the lockfile installs (not a workspace): where, what it is, and its own package.json when it is installed here. */
export interface LockedPackage {
  /** Its key in the lockfile, e.g. node_modules/@mui/material or node_modules/a/node_modules/b. */
  readonly location: string;
  readonly name: string;
  readonly version: string;
  readonly entry: LockEntry;
  /** Its package.json under node_modules; null when it is not installed on this machine (an optional package of another platform). */
  readonly installed: Manifest | null;
}

export interface Workspace {
  /** Its folder, relative to the root ('' for the root itself). */
  readonly dir: string;
  readonly manifest: Manifest;
}

export interface DependencyTree {
  readonly root: string;
  readonly manifest: Manifest;
  readonly workspaces: readonly Workspace[];
  readonly lock: { lockfileVersion?: number; packages: Record<string, LockEntry> };
  readonly packages: readonly LockedPackage[];
}

/** Where a package.json names its dependencies. */
export const DEPENDENCY_SECTIONS = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'] as const;

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;

/** The name a lockfile location installs: what follows its last node_modules/ (a scope and a name, or a name). */
export const nameAt = (location: string) => location.slice(location.lastIndexOf('node_modules/') + 'node_modules/'.length);

/** The root package.json and every workspace's (the root first, as the workspace ''). */
export function readWorkspaces(root: string): Pick<DependencyTree, 'manifest' | 'workspaces'> {
  const manifest = readJson<Manifest>(path.join(root, 'package.json'));
  const workspaces = [
    { dir: '', manifest },
    ...(manifest.workspaces ?? []).map((dir) => ({ dir, manifest: readJson<Manifest>(path.join(root, dir, 'package.json')) })),
  ];
  return { manifest, workspaces };
}

/** The project at `root` as the checks read it. */
export function readTree(root: string): DependencyTree {
  const { manifest, workspaces } = readWorkspaces(root);
  const lock = readJson<DependencyTree['lock']>(path.join(root, 'package-lock.json'));
  const packages = Object.entries(lock.packages)
    .filter(([location, entry]) => location.includes('node_modules/') && !entry.link)
    .map(([location, entry]): LockedPackage => {
      const file = path.join(root, location, 'package.json');
      return {
        location,
        name: entry.name ?? nameAt(location),
        version: entry.version ?? '',
        entry,
        installed: existsSync(file) ? readJson<Manifest>(file) : null,
      };
    });
  return { root, manifest, workspaces, lock, packages };
}
