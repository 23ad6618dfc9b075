export * from './access.ts';
export * from './auth.ts';
export * from './categories.ts';
export * from './contact.ts';
export * from './organization.ts';
export * from './registration.ts';
export * from './setup.ts';
