import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, parseAllDocuments } from 'yaml';
import type { Manifest } from './kubernetes-check.ts';

/** The deployment files (deploy/ at the repository's root) as the tests read them. */
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const deployDir = path.join(root, 'deploy');
export const read = (file: string) => readFileSync(path.join(deployDir, file), 'utf8');

/** The Compose file with its YAML anchors and merge keys (`<<`) resolved, as Compose reads it. */
export const composeFile = () => parse(read('compose/compose.yaml'), { merge: true }) as ComposeFile;
export interface ComposeService {
  image?: string;
  command?: string[];
  entrypoint?: string[];
  environment?: Record<string, string>;
  env_file?: { path: string }[];
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: unknown;
}
export interface ComposeFile {
  services: Record<string, ComposeService>;
}

/** Every document of every Kubernetes manifest (deploy/k8s/*.yaml but the kustomization). */
export function kubernetesManifests(): Manifest[] {
  const dir = path.join(deployDir, 'k8s');
  return readdirSync(dir)
    .filter((file) => file.endsWith('.yaml') && file !== 'kustomization.yaml')
    .sort()
    .flatMap((file) =>
      parseAllDocuments(readFileSync(path.join(dir, file), 'utf8')).map((doc, n) => ({ source: `${file}#${n + 1}`, doc: doc.toJS() as Manifest['doc'] })),
    );
}

/** The processes the image runs by name: the root package.json's `start:<name>` scripts. */
export function startScripts(): Map<string, string> {
  const scripts = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  return new Map(Object.entries(scripts).flatMap(([name, command]) => (name.startsWith('start:') ? [[name.slice('start:'.length), command] as const] : [])));
}

/**
 * What the image runs for a script (deploy/docker/entry.sh): its last command, which must be plain
 * node on a compiled entry (`npm run build`'s infra/dist) under the `forum-compiled` condition.
 */
export const COMPILED_ENTRY = /^node --conditions=forum-compiled infra\/dist\/\S+\.js$/;
export const lastCommand = (script: string) => script.split('&&').at(-1)!.trim();

/**
 * The processes the deployment files name that other work of issue #32 adds (the gateway on its
 * own, the Kafka relay): until their `start:` script is in package.json, the checks that need it
 * are skipped, saying which script is missing.
 */
export const ASSUMED_SERVICES = ['gateway', 'relay'] as const;

/** KEY=value lines of an env file (comments and blank lines left out). */
export const envKeys = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => line.slice(0, line.indexOf('=')));
