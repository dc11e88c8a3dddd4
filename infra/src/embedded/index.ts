export { EmbeddedConfig } from './config.ts';
export { startForum, banner, type RunningForum } from './forum.ts';
export { DEMO_ACCOUNTS, DEMO_PASSWORD } from './seed.ts';
