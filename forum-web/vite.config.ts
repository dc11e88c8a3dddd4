import { webAppConfig } from '@forum/web-auth/vite';

export default webAppConfig({ base: '/' });
