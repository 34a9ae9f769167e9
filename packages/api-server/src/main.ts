import { loadConfig } from './config';
import { startServer } from './server';

const config = loadConfig();
const server = await startServer(config);
if (config.logLevel !== 'silent') {
  process.stdout.write(
    `${JSON.stringify({ level: 'info', time: new Date().toISOString(), msg: 'API listening', url: server.url, db: config.databaseUrl ? new URL(config.databaseUrl).host + new URL(config.databaseUrl).pathname : config.dbPath, requiresActivation: config.requiresActivation })}\n`,
  );
}
const stop = () => {
  void server.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
