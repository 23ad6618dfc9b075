// What `use-sync-external-store/shim` exports when React has the hook built in (React 18+):
// React's own. The element bundles alias the shim here (see build.mjs).
export { useSyncExternalStore } from 'react';
