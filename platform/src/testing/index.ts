export * from './database.ts';
export * from './isolated-database.ts';
export * from './wait.ts';
export * from './hostile.ts';
