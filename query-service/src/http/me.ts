import type { Me } from '@forum/contracts';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { signedIn } from './access.ts';

export function meRoutes(): FastifyPluginCallbackZod {
  return (api, _options, done) => {
    api.get('/me', (request) => {
      const user = signedIn(request);
      const me: Me = {
        _id: user.id,
        name: user.name,
        email: user.email,
        photoURL: user.photo_url,
        handle: user.handle,
        role: user.role,
        isMember: user.is_member,
        registeredAt: user.registered_at.toISOString(),
      };
      return me;
    });
    done();
  };
}
