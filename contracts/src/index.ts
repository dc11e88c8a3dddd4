export * from './constants.ts';
export * from './errors.ts';
export * from './position.ts';
export * from './events/index.ts';
export * from './http/posts.ts';
export * from './http/commands.ts';
export * from './http/me.ts';
