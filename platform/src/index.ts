export * from './auth.ts';
export * from './config.ts';
export * from './db.ts';
export * from './errors.ts';
export * from './health.ts';
export * from './http.ts';
export * from './logger.ts';
