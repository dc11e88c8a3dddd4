import { QueryServiceEntryConfig, startQueryService, type RunningQueryService } from '../services/query-service-app.ts';
import type { TestForum } from './forum.ts';

/** A second query-service, in this process, on the test forum's database and trusting its realm (another process's hub, say). */
export function startQueryServer(forum: TestForum, env: Record<string, string> = {}): Promise<RunningQueryService> {
  const base = `http://127.0.0.1:${forum.port}`;
  return startQueryService(
    QueryServiceEntryConfig.parse({
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: forum.databaseUrl,
      OIDC_ISSUER: forum.issuer,
      OIDC_JWKS_URL: `${base}/realms/forum/protocol/openid-connect/certs`,
      LOG_LEVEL: process.env.TEST_LOG ?? 'silent',
      // as the test forum's: a test that is about the limits sets its own
      WRITE_LIMITS: 'off',
      ...env,
    }),
  );
}
