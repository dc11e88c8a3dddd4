import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Ajv } from 'ajv';
import { DCLinter } from 'dclint';
import { describe, expect, it } from 'vitest';
import { ASSUMED_SERVICES, COMPILED_ENTRY, composeFile, deployDir, envKeys, lastCommand, read, root, startScripts, type ComposeFile } from './deploy-files.ts';

/**
 * deploy/compose/compose.yaml against the Compose Specification's JSON Schema (the copy dclint
 * ships, kept in step with compose-spec) and dclint's error rules; and what the forum needs of it.
 */
const require = createRequire(import.meta.url);
const schemaFile = path.join(path.dirname(require.resolve('dclint/package.json')), 'schemas/compose.schema.json');
// its $schema names draft-07 by an https address Ajv does not know; Ajv's default is draft-07
const schema = JSON.parse(readFileSync(schemaFile, 'utf8')) as Record<string, unknown>;
delete schema.$schema;
const validate = new Ajv({ allErrors: true, strict: false, allowUnionTypes: true }).compile(schema);
const errorsOf = (file: unknown) =>
  validate(file) ? [] : validate.errors!.map((error) => `${error.instancePath} ${error.message} ${JSON.stringify(error.params)}`);

/** What this test uses of dclint's linter: its published types name their modules without extensions, which NodeNext does not resolve. */
type ComposeLinter = new (config: { rules: Record<string, unknown>; quiet: boolean; debug: boolean; exclude: string[] }) => {
  lintFiles(paths: string[], recursive: boolean): { messages: { type: string; rule: string; message: string }[] }[];
};
const Linter = DCLinter as unknown as ComposeLinter;

const compose = composeFile();
const forumServices = Object.entries(compose.services).filter(([, service]) => service.image?.startsWith('${FORUM_IMAGE'));
const named = (name: string) => forumServices.filter(([, service]) => service.command?.[0] === name).map(([key]) => key);

describe('the Compose file', () => {
  it('is valid by the Compose Specification', () => {
    expect(errorsOf(compose)).toEqual([]);
  });

  it('is refused with a field Compose does not have, or a value of the wrong type', () => {
    const misspelt = structuredClone(compose) as ComposeFile & { services: Record<string, Record<string, unknown>> };
    misspelt.services.gateway!.helthcheck = misspelt.services.gateway!.healthcheck;
    expect(errorsOf(misspelt)).toEqual(['/services/gateway must NOT have additional properties {"additionalProperty":"helthcheck"}']);
    const wrongType = structuredClone(compose) as ComposeFile & { services: Record<string, Record<string, unknown>> };
    wrongType.services.kafka!.depends_on = { kurrentdb: { condition: 'when_ready' } };
    expect(
      errorsOf(wrongType).some((error) => error.startsWith('/services/kafka/depends_on/kurrentdb/condition must be equal to one of the allowed values')),
    ).toBe(true);
  });

  it("passes dclint's error rules (explicit image tags, ports bound to an interface, no duplicate ports or names)", () => {
    // every rule at its own level; the style rules (key order, sorting) are warnings and not asked for
    const [result] = new Linter({ rules: {}, quiet: true, debug: false, exclude: [] }).lintFiles([path.join(deployDir, 'compose/compose.yaml')], false);
    const messages = result!.messages;
    expect(messages.filter((message) => message.type === 'error').map((message) => `${message.rule}: ${message.message}`)).toEqual([]);
    expect(messages.length).toBeGreaterThan(0);
  });

  it('runs PostgreSQL primary and replica, KurrentDB, Kafka in KRaft mode and Keycloak importing the realm', () => {
    const { services } = compose;
    expect(services['postgres-replica']!.entrypoint).toEqual(['/bin/bash', '/usr/local/bin/replica-entry.sh']);
    expect(services.kafka!.environment).toMatchObject({ KAFKA_PROCESS_ROLES: 'broker,controller', KAFKA_CONTROLLER_QUORUM_VOTERS: '1@kafka:9093' });
    expect(services.keycloak!.command).toEqual(['start', '--import-realm']);
    expect(services.keycloak!.volumes).toContain('../../identity/keycloak/forum-realm.json:/opt/keycloak/data/import/forum-realm.json:ro');
    expect(existsSync(path.join(root, 'identity/keycloak/forum-realm.json'))).toBe(true);
    for (const script of ['primary-init.sh', 'replica-entry.sh']) expect(existsSync(path.join(deployDir, 'compose/postgres', script))).toBe(true);
  });

  it('runs two of each service, a standby runner, the relay and its standby, and the gateway, each waiting on /readyz', () => {
    expect(named('command-service')).toHaveLength(2);
    expect(named('query-service')).toHaveLength(2);
    expect(named('projections')).toEqual(['projections', 'projections-standby']);
    expect(named('relay')).toEqual(['relay', 'relay-standby']);
    expect(named('gateway')).toEqual(['gateway']);
    for (const [, service] of forumServices) expect(JSON.stringify(service.healthcheck)).toContain('/readyz');
    const gateway = compose.services.gateway!.environment!;
    expect(gateway.COMMAND_SERVICE_URLS!.split(',')).toEqual(named('command-service').map((name) => `http://${name}:3001`));
    expect(gateway.QUERY_SERVICE_URLS!.split(',')).toEqual(named('query-service').map((name) => `http://${name}:3002`));
  });

  it('keeps secrets in env files outside git, each with an example of placeholders beside it', () => {
    const files = new Set(Object.values(compose.services).flatMap((service) => service.env_file?.map((file) => file.path) ?? []));
    expect([...files].sort()).toEqual(['forum.env', 'keycloak.env', 'postgres.env']);
    expect(read('compose/.gitignore')).toMatch(/^\*\.env$/m);
    for (const file of files) {
      const example = read(`compose/${file}.example`);
      for (const line of example.split('\n').filter((l) => l && !l.startsWith('#')))
        expect(line, `${file}.example`).toMatch(/^[A-Z_]+=(|.*change-me.*|smtp\.example\.com|no-reply@example\.com)$/);
    }
    // no secret is written into the Compose file itself
    for (const service of Object.values(compose.services)) {
      for (const key of Object.keys(service.environment ?? {})) expect(key).not.toMatch(/PASSWORD|SECRET|DATABASE_URL/);
    }
  });

  it('gives Keycloak every placeholder of the realm export (identity/keycloak/forum-realm.json)', () => {
    const placeholders = [...readFileSync(path.join(root, 'identity/keycloak/forum-realm.json'), 'utf8').matchAll(/\$\{([A-Z0-9_]+)(?::[^}]*)?\}/g)].map(
      (match) => match[1]!,
    );
    const given = new Set([...Object.keys(compose.services.keycloak!.environment ?? {}), ...envKeys(read('compose/keycloak.env.example'))]);
    expect(placeholders.length).toBeGreaterThan(0);
    expect(placeholders.filter((name) => !given.has(name))).toEqual([]);
  });
});

describe("the image's process names in the Compose file", () => {
  const scripts = startScripts();
  const names = [...new Set(forumServices.map(([, service]) => service.command![0]!))];
  for (const name of names) {
    const assumed = (ASSUMED_SERVICES as readonly string[]).includes(name) && !scripts.has(name);
    if (assumed) console.info(`skipped: package.json has no start:${name} yet (the work of issue #32 that adds it); deploy/ assumes that name`);
    it.skipIf(assumed)(`${name} is a start:${name} script that runs a compiled entry with node`, () => {
      expect(lastCommand(scripts.get(name)!)).toMatch(COMPILED_ENTRY);
    });
  }
});
