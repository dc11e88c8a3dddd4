import path from 'node:path';
import ts from 'typescript';
import { ConfigMap, Namespace, Service } from 'kubernetes-models/v1';
import { Deployment } from 'kubernetes-models/apps/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';

/**
 * Checks Kubernetes manifests against the API's own schemas, as shipped by `kubernetes-models`
 * (generated from Kubernetes' OpenAPI document), in two ways:
 * - its validators (JSON Schema compiled by ajv): types, formats, enums, required fields;
 * - its TypeScript interfaces, through the compiler's excess-property check: a field the API does not
 *   have (`readynessProbe`), which the schema lets through as Kubernetes' own API server does, and
 *   `kubectl apply` (strict field validation) refuses.
 */

/** The kinds the manifests use, by `apiVersion/kind`: the model and where its interface is. */
const KINDS = {
  'v1/Namespace': { model: Namespace, types: 'kubernetes-models/v1/Namespace', name: 'INamespace' },
  'v1/ConfigMap': { model: ConfigMap, types: 'kubernetes-models/v1/ConfigMap', name: 'IConfigMap' },
  'v1/Service': { model: Service, types: 'kubernetes-models/v1/Service', name: 'IService' },
  'apps/v1/Deployment': { model: Deployment, types: 'kubernetes-models/apps/v1/Deployment', name: 'IDeployment' },
  'policy/v1/PodDisruptionBudget': { model: PodDisruptionBudget, types: 'kubernetes-models/policy/v1/PodDisruptionBudget', name: 'IPodDisruptionBudget' },
} as const;

export interface Manifest {
  /** Where it is, e.g. `gateway.yaml#2` (the file and the document's number in it). */
  readonly source: string;
  readonly doc: { apiVersion?: unknown; kind?: unknown } & Record<string, unknown>;
}

const kindOf = (manifest: Manifest) => `${String(manifest.doc.apiVersion)}/${String(manifest.doc.kind)}`;

/** What the API's schema refuses in each manifest (`source: path message`); an unknown kind is refused too. */
export function schemaErrors(manifests: readonly Manifest[]): string[] {
  const errors: string[] = [];
  for (const manifest of manifests) {
    const kind = KINDS[kindOf(manifest) as keyof typeof KINDS];
    if (!kind) {
      errors.push(`${manifest.source}: no schema for ${kindOf(manifest)} (add it to KINDS)`);
      continue;
    }
    try {
      // the models validate what they were given, as given (nothing is defaulted first)
      new (kind.model as new (data: unknown) => { validate(): void })(manifest.doc).validate();
    } catch (error) {
      const details = (error as { errors?: { instancePath: string; message?: string }[] }).errors;
      if (details) for (const detail of details) errors.push(`${manifest.source}: ${detail.instancePath || '/'} ${detail.message}`);
      else errors.push(`${manifest.source}: ${(error as Error).message}`);
    }
  }
  return errors;
}

/**
 * Fields of the manifests that their kind does not have, and values of the wrong type, as the
 * TypeScript compiler finds them in `const doc: IDeployment = {…}`. `near` is a folder from which
 * `kubernetes-models` resolves (the compiler reads its declarations there).
 */
export function fieldErrors(manifests: readonly Manifest[], near: string): string[] {
  const files = new Map<string, Manifest>();
  manifests.forEach((manifest, n) => {
    if (kindOf(manifest) in KINDS) files.set(path.join(near, `manifest-${n}.check.ts`), manifest);
  });
  const sourceOf = (manifest: Manifest) => {
    const kind = KINDS[kindOf(manifest) as keyof typeof KINDS];
    return `import type { ${kind.name} } from '${kind.types}';\nexport const doc: ${kind.name} = ${JSON.stringify(manifest.doc, null, 2)};\n`;
  };
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (file) => (files.has(file) ? sourceOf(files.get(file)!) : readFile(file));
  host.fileExists = (file) => files.has(file) || fileExists(file);
  host.getSourceFile = (file, language, onError, create) =>
    files.has(file) ? ts.createSourceFile(file, sourceOf(files.get(file)!), language, true) : getSourceFile(file, language, onError, create);
  const program = ts.createProgram([...files.keys()], options, host);
  return [...files].flatMap(([file, manifest]) =>
    ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((diagnostic) => {
      const where = diagnostic.file && diagnostic.start !== undefined ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start) : null;
      // the line of the generated literal that holds the field: its path is the JSON around it
      const line = where ? diagnostic.file!.text.split('\n')[where.line]!.trim() : '';
      return `${manifest.source}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}${line ? ` (at ${line})` : ''}`;
    }),
  );
}
