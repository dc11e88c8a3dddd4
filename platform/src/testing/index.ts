export * from './database.ts';
export * from './wait.ts';
