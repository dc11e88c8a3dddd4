export * from './isolated-database.ts';
export * from './forum.ts';
export * from './realm.ts';
