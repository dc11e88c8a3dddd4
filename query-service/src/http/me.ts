import type { Me } from '@forum/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { signedIn } from './access.ts';

export function meRoutes(): FastifyPluginAsyncZod {
  return async (api) => {
    api.get('/me', async (request) => {
      const user = signedIn(request);
      const me: Me = {
        _id: user.id,
        name: user.name,
        email: user.email,
        photoURL: user.photo_url,
        role: user.role,
        isMember: user.is_member,
        registeredAt: user.registered_at.toISOString(),
      };
      return me;
    });
  };
}
