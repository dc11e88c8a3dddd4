export * from './database.ts';
export * from './forum.ts';
export * from './wait.ts';
export * from './realm.ts';
