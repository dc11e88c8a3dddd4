export * from './database.ts';
export * from './forum.ts';
export * from './wait.ts';
export * from './security-headers.ts';
export * from './realm.ts';
export * from './routes.ts';
export * from './log.ts';
