import { containerEngineMissing } from '@forum/platform/testing';
/**
 * A KurrentDB server for tests: the one at EVENTSTORE_URL when it is set, else a container of the
 * official image started through testcontainers when a Docker engine answers, else none, with the
 * reason a test names as it skips. `multiStreamAppend` needs KurrentDB 25.1 or later.
 */
export const KURRENTDB_IMAGE = 'kurrentplatform/kurrentdb:25.1';

export type TestServer = { readonly url: string; stop(): Promise<void> } | { readonly url: null; readonly missing: string };

export async function kurrentDbForTests(): Promise<TestServer> {
  const url = process.env.EVENTSTORE_URL;
  if (url) return { url, stop: async () => {} };
  const noEngine = await containerEngineMissing();
  if (noEngine) return { url: null, missing: `set EVENTSTORE_URL to a KurrentDB 25.1+ server, or run a Docker engine (${noEngine})` };
  const { GenericContainer, Wait } = await import('testcontainers');
  const container = await new GenericContainer(KURRENTDB_IMAGE)
    .withEnvironment({ KURRENTDB_CLUSTER_SIZE: '1', KURRENTDB_INSECURE: 'true', KURRENTDB_MEM_DB: 'true', KURRENTDB_TELEMETRY_OPTOUT: 'true' })
    .withExposedPorts(2113)
    .withWaitStrategy(Wait.forHealthCheck())
    .withStartupTimeout(120_000)
    .start();
  return {
    url: `kurrentdb://${container.getHost()}:${container.getMappedPort(2113)}?tls=false`,
    stop: async () => void (await container.stop()),
  };
}
