// `node --import tsx --import ./scripts/bench/app-packages.mjs scripts/bench-web.mjs` (the bench:web script):
// lets the bench import a workspace package the root package.json does not list as a dependency
// (`@app/federation`, for the route table's findRoute) by its own name, as packages/<name> declares it in its
// package.json ("name" and the "." export). A name the root does resolve is left alone; nothing else changes,
// and child processes are not affected (the hook is not in NODE_OPTIONS).
import fs from 'node:fs';
import { register } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isMainThread } from 'node:worker_threads';

const PACKAGES = path.resolve(import.meta.dirname, '..', '..', 'packages');

// This file is both the --import entry (main thread: register the hook) and the hook (the loader thread).
if (isMainThread) register(import.meta.url);

export async function resolve(specifier, context, nextResolve) {
  try {
    return await nextResolve(specifier, context);
  } catch (error) {
    const match = /^@app\/([a-z0-9-]+)$/.exec(specifier);
    if (!match || error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
    const dir = path.join(PACKAGES, match[1]);
    let manifest;
    try {
      manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
    } catch {
      throw error;
    }
    const entry = typeof manifest.exports === 'string' ? manifest.exports : manifest.exports?.['.'];
    if (manifest.name !== specifier || typeof entry !== 'string') throw error;
    return nextResolve(pathToFileURL(path.join(dir, entry)).href, context);
  }
}
