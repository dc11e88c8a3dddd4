export * from './database.ts';
export * from './wait.ts';
export * from './hostile.ts';
