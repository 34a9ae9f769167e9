export { createApp } from './app';
export { type Config, DEFAULT_CONFIG, loadConfig, validateConfig } from './config';
export { type AppContext, createContext, seed } from './context';
export { migrate, openSqlite } from './db/database';
export { MIGRATIONS } from './db/migrations';
export { type RunningServer, startServer } from './server';
export { ROLLOUT_MESSAGES } from './services/rollout-messages';
