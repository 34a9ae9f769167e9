export * from './cohort';
export * from './compat';
export * from './health-gate';
export * from './integrity';
export * from './manifest';
export * from './remotes';
export * from './urls';
export * from './version-id';
