// `node --test scripts/start-config.test.mjs`: what `pnpm start` tells the API and the edge.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startConfig } from './start-config.mjs';

const apps = [
  { name: 'shell', port: 3000 },
  { name: 'mf-account', port: 3001 },
];

test('the pages follow API_PORT: the edge is told the API is there', () => {
  assert.equal(startConfig({}, { apiPort: 4000, apps }).apiBaseUrl, 'http://localhost:4000');
  assert.equal(startConfig({}, { apiPort: 4100, apps }).apiBaseUrl, 'http://localhost:4100');
  assert.equal(
    startConfig({ API_BASE_URL: 'https://api.example.test' }, { apiPort: 4100, apps }).apiBaseUrl,
    'https://api.example.test',
  );
});

test('one CORS_ORIGINS for the API and the files: every environment served and the remotes', () => {
  const { corsOrigins, served } = startConfig({}, { apiPort: 4000, apps });
  assert.deepEqual(served, { production: 3000, staging: 3010 });
  assert.equal(
    corsOrigins,
    [3000, 3010, 3001].flatMap((p) => [`http://localhost:${p}`, `http://127.0.0.1:${p}`]).join(','),
  );
  assert.equal(startConfig({ CORS_ORIGINS: 'https://a.test' }, { apps }).corsOrigins, 'https://a.test');
  assert.deepEqual(startConfig({ STAGING_PORT: '0' }, { apps }).served, { production: 3000 });
});

test('PORT_OFFSET moves every app and staging together, so a second stack shares no port', () => {
  const config = startConfig({ PORT_OFFSET: '300' }, { apiPort: 4400, apps });
  assert.deepEqual(
    config.apps.map((a) => a.port),
    [3300, 3301],
  );
  assert.deepEqual(config.served, { production: 3300, staging: 3310 });
  assert.match(config.corsOrigins, /http:\/\/localhost:3300,/);
  assert.throws(() => startConfig({ PORT_OFFSET: '-1' }, { apps }), /PORT_OFFSET/);
});
