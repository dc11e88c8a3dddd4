export { createCommandApp, type CommandApp, type CommandAppDeps } from './http/app.ts';
export { createForumCommands, type ForumCommands, type Accepted, type Identity } from './domain/forum.ts';
export { identityOf } from './http/context.ts';
export type { CommandMeta } from './domain/command.ts';
export { CommandServiceConfig } from './config.ts';
export { paymentSettings, paymentProviderFrom } from './payment/settings.ts';
export { readModelDirectory, type UserDirectory } from './lookup/users.ts';
export type { PaymentProvider } from './payment/port.ts';
export * from './identity-admin/index.ts';
