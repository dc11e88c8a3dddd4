import type { Me } from '@forum/contracts';
import { UnauthenticatedError } from '@forum/platform';
import { Router } from 'express';

export function meRoutes(): Router {
  const router = Router();
  router.get('/me', (_req, res) => {
    const user = res.locals.viewer;
    if (!user) throw new UnauthenticatedError();
    const me: Me = {
      _id: user.id,
      name: user.name,
      email: user.email,
      photoURL: user.photo_url,
      role: user.role,
      isMember: user.is_member,
      registeredAt: user.registered_at.toISOString(),
    };
    res.json(me);
  });
  return router;
}
