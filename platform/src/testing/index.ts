export * from './database.ts';
export * from './isolated-database.ts';
export * from './wait.ts';
export * from './hostile.ts';
export * from './ids.ts';
export * from './clock.ts';
export * from './event-metadata.ts';
export * from './containers.ts';
