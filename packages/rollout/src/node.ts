// Node-only helpers (node:crypto, node:fs): never imported by browser code.

export * from './compat/read-build';
export * from './health-ticket';
export * from './integrity-node';
export * from './override-check';
export * from './preview-check';
export * from './preview-token';
export * from './release-content';
export * from './release-store';
export * from './render-report';
export * from './store-files';
