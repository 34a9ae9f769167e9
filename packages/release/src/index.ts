export * from './audit';
export * from './context';
export * from './errors';
export * from './release';
export * from './release-info';
