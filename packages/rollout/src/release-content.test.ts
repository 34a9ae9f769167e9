import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as tar from 'tar-stream';
import { describe, expect, it } from 'vitest';
import { sha384Integrity } from './integrity-node';
import { packReleaseBundle, ReleaseContentError, releaseVersionOf } from './release-content';
import { fileReleaseStore } from './release-store';

/** A small build of mf-research, always the same bytes. */
function fixtureDist(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'release-content-'));
  fs.writeFileSync(path.join(dir, 'remoteEntry.js'), 'var mf_research = {};\n');
  fs.writeFileSync(
    path.join(dir, 'mf-manifest.json'),
    JSON.stringify({
      name: 'mf_research',
      metaData: { buildInfo: { buildVersion: '1.2.3' } },
      shared: [{ name: 'react', version: '19.3.1', requiredVersion: '^19.3.1' }],
      exposes: [{ name: './App', path: './App' }],
    }),
  );
  fs.mkdirSync(path.join(dir, 'static', 'js'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'static', 'js', 'app.js'), 'console.log(1);\n');
  return dir;
}

describe('releaseVersionOf', () => {
  it('gives the id tooling/release always gave (the hash of path, size and bytes, sorted)', () => {
    const dir = fixtureDist();
    const release = releaseVersionOf(dir, '0.0.0', 'mf-research');
    // Computed with tooling/release/src/dist.ts hashFiles before the move: ids already stored stay valid.
    expect(release.contentHash).toBe('128637bb8ab5ed1a545990d661d246e4f123fd16a30de9ab62c5b8edc24a1488');
    expect(release.version).toBe(`1.2.3-${release.contentHash.slice(0, 10)}`);
    expect(release).toMatchObject({ packageVersion: '1.2.3', files: 3 });
    expect(release.entryIntegrity).toBe(sha384Integrity('var mf_research = {};\n'));
    // release.json describes the content, so it is not part of it: a stored folder hashes to its own id.
    fs.writeFileSync(path.join(dir, 'release.json'), '{}');
    expect(releaseVersionOf(dir, '0.0.0', 'mf-research').version).toBe(release.version);
  });

  it('refuses a build of another remote and a build without remoteEntry.js', () => {
    const dir = fixtureDist();
    expect(() => releaseVersionOf(dir, '0.0.0', 'mf-account')).toThrow(/is a build of mf_research/);
    fs.rmSync(path.join(dir, 'remoteEntry.js'));
    expect(() => releaseVersionOf(dir, '0.0.0', 'mf-research')).toThrow(ReleaseContentError);
  });
});

describe('packReleaseBundle', () => {
  it('packs every file plus release.json as plain files at the root', async () => {
    const dir = fixtureDist();
    const names: string[] = [];
    const extract = tar.extract();
    const done = new Promise<void>((resolve, reject) => {
      extract.on('entry', (header, stream, next) => {
        expect(header.type).toBe('file');
        names.push(header.name);
        stream.resume();
        stream.on('end', () => next());
      });
      extract.on('finish', () => resolve());
      extract.on('error', reject);
    });
    for await (const chunk of packReleaseBundle(dir, [{ name: 'release.json', content: '{}' }])) {
      extract.write(chunk);
    }
    extract.end(null);
    await done;
    expect(names).toEqual(['mf-manifest.json', 'remoteEntry.js', 'static/js/app.js', 'release.json']);
  });
});

describe('fileReleaseStore', () => {
  it('publishes a prepared folder whole, never over an existing version, and removes it', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'release-store-'));
    const store = fileReleaseStore(root);
    const version = '1.2.3-aaaaaaaaaa';
    const prepared = await store.prepare('mf-research');
    fs.writeFileSync(path.join(prepared, 'remoteEntry.js'), 'x');
    expect(await store.has('mf-research', version)).toBe(false);
    const info = { version, createdAt: '2026-01-01T00:00:00.000Z' };
    expect(await store.publish('mf-research', version, prepared, info)).toBe('published');
    const folder = store.folder('mf-research', version)!;
    expect(fs.statSync(folder).mode & 0o777).toBe(0o755);
    expect(fs.statSync(path.join(folder, 'remoteEntry.js')).mode & 0o777).toBe(0o644);
    expect(await store.info('mf-research', version)).toEqual(info);

    const again = await store.prepare('mf-research');
    fs.writeFileSync(path.join(again, 'remoteEntry.js'), 'other');
    expect(await store.publish('mf-research', version, again, info)).toBe('exists');
    await store.discard(again);
    expect(fs.readFileSync(path.join(folder, 'remoteEntry.js'), 'utf8')).toBe('x');

    const newer = { version: '1.2.4-bbbbbbbbbb', createdAt: '2026-02-01T00:00:00.000Z' };
    const third = await store.prepare('mf-research');
    await store.publish('mf-research', newer.version, third, newer);
    expect((await store.list('mf-research')).map((r) => r.version)).toEqual([newer.version, version]);
    await store.remove('mf-research', version);
    expect(await store.list('mf-research')).toEqual([newer]);
    expect(fs.readdirSync(path.join(root, 'mf-research'))).toEqual([newer.version]);
    await expect(store.discard(folder)).rejects.toThrow(/not a prepared folder/);
  });
});
