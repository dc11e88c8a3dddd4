/**
 * Why a test cannot start containers here, or null when it can: testcontainers looks for a Docker
 * engine the way it always does (DOCKER_HOST, ~/.testcontainers.properties, the usual sockets,
 * rootless Docker) and we ask it. A suite of an engine that runs only in a container (Kafka,
 * Keycloak, KurrentDB) skips with this reason when it has no server of its own to talk to.
 * testcontainers is loaded only when asked, so test files that never ask do not load it.
 */
export async function containerEngineMissing(): Promise<string | null> {
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    await getContainerRuntimeClient();
    return null;
  } catch (error) {
    return `no Docker engine for testcontainers (${error instanceof Error ? error.message : String(error)})`;
  }
}
