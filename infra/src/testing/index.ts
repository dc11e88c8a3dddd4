export * from './forum.ts';
export * from './realm.ts';
export * from './expect-status.ts';
export * from './given.ts';
