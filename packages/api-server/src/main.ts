import { type Config, loadConfig } from './config';
import { startServer } from './server';

/** Which database the start line names: PostgreSQL's host and database (never the password), or the file. */
const databaseLabel = ({ databaseUrl, dbPath }: Config) => {
  if (!databaseUrl) return dbPath;
  const url = new URL(databaseUrl);
  return `${url.host}${url.pathname}`;
};

const config = loadConfig();
const server = await startServer(config);
if (config.logLevel !== 'silent') {
  process.stdout.write(
    `${JSON.stringify({ level: 'info', time: new Date().toISOString(), msg: 'API listening', url: server.url, db: databaseLabel(config), requiresActivation: config.requiresActivation })}\n`,
  );
}
const stop = () => {
  void server.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
