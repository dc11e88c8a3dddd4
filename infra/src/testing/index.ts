export * from './database.ts';
export * from './forum.ts';
