import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { DEPLOY_PATHS } from '@app/contracts/deploy';
import * as tar from 'tar-stream';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../src/config';
import { unpackBundle } from '../src/services/release-bundle';
import {
  bundleOf,
  fixtureDist,
  infoOf,
  releaseRows,
  storeEntries,
  upload,
  writeShellManifest,
} from './deploy-releases-fixtures';
import { startTestServer, type TestServer } from './helpers';

let server: TestServer | null = null;
let shellManifest = '';
beforeAll(() => {
  shellManifest = writeShellManifest();
});
afterEach(async () => {
  await server?.close();
  server = null;
});

async function start(bundleMaxBytes = DEFAULT_CONFIG.deploy.bundleMaxBytes) {
  server = await startTestServer({ deploy: { ...DEFAULT_CONFIG.deploy, bundleMaxBytes, shellManifest } });
  const { token } = await server.ctx.deployTokens.create({
    name: 'ci',
    admin: true,
    remotes: [],
    environments: [],
    createdBy: 'test',
  });
  return { server, token };
}

/**
 * PUTs a tar made on the fly (`files` entries of `fileBytes` zeros), chunked (no Content-Length, so only
 * counting can stop it). Resolves with the status as soon as the server answers, whatever is left unsent.
 */
function streamHugeTar(
  s: TestServer,
  token: string,
  files: number,
  fileBytes: number,
  options: { abortAfterBytes?: number } = {},
) {
  return new Promise<{ status: number | null; body: string; sent: number }>((resolve, reject) => {
    const url = new URL(`${s.url}${DEPLOY_PATHS.release('mf-research', '1.0.0-aaaaaaaaaa')}?env=production`);
    const req = http.request(url, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-tar' },
    });
    let sent = 0;
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      let body = '';
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? null, body, sent }));
    });
    // The server closes the connection under a body it refused: expected, once it has answered.
    req.on('error', (error) => {
      if (!answered && !options.abortAfterBytes) reject(error);
    });
    const pack = tar.pack();
    const zeros = Buffer.alloc(1024 * 1024);
    (async () => {
      for (let i = 0; i < files && !answered; i++) {
        await new Promise<void>((done) => {
          const entry = pack.entry({ name: `chunk-${i}.bin`, size: fileBytes }, () => done());
          for (let left = fileBytes; left > 0; left -= zeros.length)
            entry.write(zeros.subarray(0, Math.min(left, zeros.length)));
          entry.end(null);
        });
      }
      pack.finalize();
    })().catch(() => undefined);
    pack.on('data', (data) => {
      const chunk = data as Buffer;
      if (req.destroyed) return;
      sent += chunk.length;
      if (options.abortAfterBytes && sent > options.abortAfterBytes) {
        req.destroy();
        pack.destroy();
        resolve({ status: null, body: '', sent });
        return;
      }
      if (!req.write(chunk)) {
        pack.pause();
        req.once('drain', () => pack.resume());
      }
    });
    pack.on('end', () => req.end());
  });
}

/**
 * Resolves once the remote's folder in the store is empty: the folder is watched, and the upload's working
 * folder going away is the event that checks again (no polling). Rejects after `timeoutMs`.
 */
function storeEmptied(s: TestServer, timeoutMs = 5000): Promise<void> {
  const dir = path.join(s.ctx.config.rollout.paths.store, 'mf-research');
  if (storeEntries(s).length === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const watcher = fs.watch(dir);
    const done = (error?: Error) => {
      clearTimeout(timer);
      watcher.close();
      if (error) reject(error);
      else resolve();
    };
    const check = () => {
      if (storeEntries(s).length === 0) done();
    };
    const timer = setTimeout(
      () => done(new Error(`the store still holds ${storeEntries(s).join(', ')} after ${timeoutMs} ms`)),
      timeoutMs,
    );
    watcher.on('change', check);
    watcher.on('error', done);
    check();
  });
}

async function expectEmptyStore(s: TestServer) {
  expect(storeEntries(s)).toEqual([]);
  expect(await releaseRows(s)).toEqual([]);
}

describe('release bundle limits', () => {
  it('answers 413 to a bundle over DEPLOY_BUNDLE_MAX_BYTES, plain or gzip, and stores nothing', async () => {
    const { server: s, token } = await start(64 * 1024);
    const dist = fixtureDist('big');
    fs.writeFileSync(path.join(dist, 'static', 'js', 'big.js'), Buffer.alloc(200 * 1024, 'a'));
    const info = infoOf(dist);
    const res = await upload(s, info.version, await bundleOf(dist, info), token);
    expect(res.status).toBe(413);
    expect(res.body.error).toMatch(/DEPLOY_BUNDLE_MAX_BYTES/);
    // 200 KB of one letter gzips to a few hundred bytes: the unpacked size is what stops it then.
    const gz = await upload(s, info.version, await bundleOf(dist, info, { gzip: true }), token);
    expect(gz.status).toBe(413);
    await expectEmptyStore(s);
  });

  it('stops reading a 600 MB stream at the default limit: 413 at once, nothing stored, the server still up', async () => {
    const { server: s, token } = await start();
    const started = performance.now();
    const res = await streamHugeTar(s, token, 600, 1024 * 1024);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).error).toMatch(/larger than 104857600 bytes/);
    expect(res.sent).toBeLessThan(400 * 1024 * 1024);
    expect(performance.now() - started).toBeLessThan(15_000);
    await expectEmptyStore(s);
    expect((await s.get('/api/health')).status).toBe(200);
  }, 30_000);

  it('removes the upload when the client goes away mid-stream', async () => {
    const { server: s, token } = await start();
    const res = await streamHugeTar(s, token, 50, 1024 * 1024, { abortAfterBytes: 8 * 1024 * 1024 });
    expect(res.status).toBeNull();
    // The server notices the reset on its next read and removes its working folder then.
    await storeEmptied(s);
    await expectEmptyStore(s);
    expect((await s.get('/api/health')).status).toBe(200);
  });

  it('adopts a release folder made before the API kept releases', async () => {
    const { server: s, token } = await start();
    const dist = fixtureDist('old');
    const info = infoOf(dist);
    const folder = path.join(s.ctx.config.rollout.paths.store, 'mf-research', info.version);
    fs.cpSync(dist, folder, { recursive: true });
    // An older release.json: no contentHash, as publish.ts wrote them.
    const { contentHash: _, ...old } = info;
    fs.writeFileSync(path.join(folder, 'release.json'), JSON.stringify(old));
    const list = await s.get(DEPLOY_PATHS.releases('mf-research'), token);
    expect(list.body.releases.map((r: { version: string }) => r.version)).toEqual([info.version]);
    expect(await releaseRows(s)).toEqual([info.version]);
    // Uploading the same build again is the no-op it always was.
    expect((await upload(s, info.version, await bundleOf(dist, info), token)).status).toBe(200);
  });

  it('refuses more entries than allowed, and a folder through a file, in the bundle reader itself', async () => {
    const tarOf = async (entries: { name: string; type?: 'directory' }[]) => {
      const pack = tar.pack();
      for (const { name, type } of entries) {
        if (type) pack.entry({ name, type }).end(null);
        else pack.entry({ name }, 'x');
      }
      pack.finalize();
      const chunks: Buffer[] = [];
      for await (const chunk of pack) chunks.push(chunk as Buffer);
      return new Blob([Buffer.concat(chunks)]).stream();
    };
    const unpack = async (entries: { name: string; type?: 'directory' }[]) =>
      unpackBundle(await tarOf(entries), fs.mkdtempSync(path.join(os.tmpdir(), 'unpack-')), {
        maxBytes: 1024 * 1024,
        maxFiles: 3,
      });
    await expect(
      unpack([{ name: 'a' }, { name: 'b' }, { name: 'c', type: 'directory' }, { name: 'd' }]),
    ).rejects.toThrow(/more than 3 entries/);
    await expect(unpack([{ name: 'a' }, { name: 'a/b', type: 'directory' }])).rejects.toThrow(/it is a file/);
    await expect(unpack([{ name: 'a', type: 'directory' }, { name: 'a' }])).rejects.toThrow(
      /both a folder and a file/,
    );
    expect(await unpack([{ name: './x/', type: 'directory' }, { name: './x/y.js' }])).toEqual({
      files: ['x/y.js'],
      bytes: 1,
    });
  });
});
