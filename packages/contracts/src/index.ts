export * from './access';
export * from './api-paths';
export * from './entities';
export * from './enums';
export * from './messages';
export * from './rollout';
export * from './rules';
export * from './storage-keys';
