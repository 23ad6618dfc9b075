export * from './access.ts';
export * from './auth.ts';
export * from './categories.ts';
export * from './organization.ts';
