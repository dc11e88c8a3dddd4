export { createCommandApp, type CommandAppDeps } from './http/app.ts';
export { createForumCommands, type ForumCommands, type Accepted } from './domain/forum.ts';
export type { CommandMeta } from './domain/command.ts';
export { CommandServiceConfig } from './config.ts';
