import { webAppConfig } from '@forum/web-auth/vite';

/** The gateway serves this console under /admin. */
export default webAppConfig({ base: '/admin/' });
