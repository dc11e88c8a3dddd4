export * from './forum.ts';
export * from './realm.ts';
