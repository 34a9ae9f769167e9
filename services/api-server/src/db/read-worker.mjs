// One worker of the read pool (read-pool.ts): its own read-only connection to the WAL database, so a long
// query (a full-text search for a word in most posts) runs beside the event loop instead of on it.
// Plain JavaScript on purpose: a worker starts without the TypeScript loader the server may run under.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const db = new Database(workerData.file, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
const statements = new Map();

const prepared = (sql, pluck = false) => {
  const key = `${pluck ? 'value' : 'rows'}:${sql}`;
  let statement = statements.get(key);
  if (!statement) {
    statement = db.prepare(sql).pluck(pluck);
    statements.set(key, statement);
  }
  return statement;
};

// `fill`: parameters to compute first, each the single value of its query (read-pool.ts `query`).
parentPort.on('message', ({ id, sql, params, fill = {} }) => {
  try {
    const filled = {};
    for (const [name, fillSql] of Object.entries(fill)) {
      if (params[name] !== null && params[name] !== undefined) continue;
      filled[name] = prepared(fillSql, true).get(params);
      params[name] = filled[name];
    }
    parentPort.postMessage({ id, rows: prepared(sql).all(params), filled });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
