import { describe, it } from 'vitest';
import { anAdmin, anError, commandApiSpec, member, registered, visitor } from '../testing/index.ts';

/**
 * POST /api/admin/projections/:name/rebuild (operations.ts). A rebuild is the projections' work
 * (the ProjectionControl port, over PostgreSQL): its 202 and the 404 of an unknown projection are in
 * infra/src/api-tests/operations.int.test.ts. Here: who may ask, and what a name may be.
 */
const api = commandApiSpec();
const ada = member('Ada Admin');
const uma = member('Uma User');

describe('POST /api/admin/projections/:name/rebuild', () => {
  it('refuses visitors (401), users (403), bad names and bodies (400); appends nothing', async () => {
    await api.given(anAdmin(ada), registered(uma));
    await api.when(visitor.post('/api/admin/projections/posts/rebuild')).then(401, anError('UNAUTHENTICATED'));
    await api.when(uma.post('/api/admin/projections/posts/rebuild')).then(403, anError('FORBIDDEN'));
    await api.when(ada.post(`/api/admin/projections/${'x'.repeat(64)}/rebuild`)).then(400, anError('VALIDATION_FAILED'));
    await api.when(ada.post('/api/admin/projections/%00/rebuild')).then(400, anError('VALIDATION_FAILED'));
    await api.when(ada.post('/api/admin/projections/posts/rebuild', { anything: true })).then(400, anError('VALIDATION_FAILED'));
  });

  it('answers an admin 503 UNAVAILABLE, recording nothing, where the service has no projection control', async () => {
    await api.given(anAdmin(ada));
    await api.when(ada.post('/api/admin/projections/posts/rebuild')).then(503, anError('UNAVAILABLE'), []);
  });
});
