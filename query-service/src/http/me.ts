import { Me } from '@forum/contracts';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { suspensionAt } from '../store/users.ts';
import { signedIn } from './access.ts';

/** GET /api/me; `clock` decides whether a suspension is still in force (its end needs no event). */
export function meRoutes(clock: () => Date = () => new Date()): FastifyPluginCallbackZod {
  return (api, _options, done) => {
    api.get('/me', { schema: { answers: { 200: { body: Me } } } }, (request) => {
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
        suspension: suspensionAt(user, clock()),
      };
      return me;
    });
    done();
  };
}
