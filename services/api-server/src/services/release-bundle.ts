import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import * as tar from 'tar-stream';
import { HttpError } from '../errors';

/**
 * Unpacks a release bundle (a tar stream, gzip or not) into an empty folder, refusing anything but plain
 * files and folders at safe relative names. The bundle comes from the network: its names, types, sizes and
 * count are all chosen by whoever sends it, so nothing is written outside `dir` and nothing is trusted
 * before this function has looked at it. The caller removes `dir` when this throws.
 */
export interface BundleLimits {
  /** The most bytes read from the request (DEPLOY_BUNDLE_MAX_BYTES); also the most bytes unpacked. */
  maxBytes: number;
  /** The most files in one bundle (a dist has hundreds; an archive of millions of empty files is an attack). */
  maxFiles: number;
}

export const DEFAULT_MAX_FILES = 20_000;
const MAX_NAME_LENGTH = 1024;

const tooLarge = (limit: number) =>
  new HttpError(413, `The release bundle is larger than ${limit} bytes (DEPLOY_BUNDLE_MAX_BYTES)`);
const refused = (why: string) => new HttpError(400, `Release bundle refused: ${why}`);

/**
 * The name an entry is written at, relative to the bundle's root, or a refusal. `./` prefixes (what
 * `tar -C dist -cf - .` writes) are dropped; absolute names, `..`, backslashes, NUL and empty segments are
 * refused rather than cleaned, because a bundle that carries them was not made by our CLI.
 */
export function safeEntryName(raw: string): string {
  if (raw.includes('\0')) throw refused('an entry name contains a NUL character');
  if (raw.includes('\\')) throw refused(`"${raw}" contains a backslash`);
  if (raw.startsWith('/')) throw refused(`"${raw}" is an absolute path`);
  if (raw.length > MAX_NAME_LENGTH)
    throw refused(`an entry name is longer than ${MAX_NAME_LENGTH} characters`);
  const segments = raw.replace(/\/+$/, '').split('/');
  while (segments[0] === '.' && segments.length > 1) segments.shift();
  if (segments.includes('..')) throw refused(`"${raw}" leaves the bundle (..)`);
  if (segments.some((segment) => segment === '' || segment === '.')) {
    throw refused(`"${raw}" is not a plain relative path`);
  }
  return segments.join('/');
}

/**
 * The request body's bytes, counted: over `limit` it stops reading (cancels the stream) and throws 413, so
 * a client that sends 600 MB costs only what was read before the limit.
 */
async function* counted(body: ReadableStream<Uint8Array>, limit: number): AsyncGenerator<Buffer> {
  const reader = body.getReader();
  let total = 0;
  try {
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch {
        // The client went away (or the connection broke) mid-stream: nobody is left to read an answer.
        throw refused('the upload stopped before the bundle was complete');
      }
      const { done, value } = chunk;
      if (done) return;
      total += value.byteLength;
      if (total > limit) throw tooLarge(limit);
      yield Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/** Gunzips when the stream starts with gzip's magic bytes (whatever the headers say), else passes through. */
async function* decoded(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  const iterator = source[Symbol.asyncIterator]();
  let head = Buffer.alloc(0);
  while (head.length < 2) {
    const next = await iterator.next();
    if (next.done) break;
    head = Buffer.concat([head, next.value]);
  }
  async function* rest() {
    if (head.length > 0) yield head;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  }
  if (head[0] !== 0x1f || head[1] !== 0x8b) {
    yield* rest();
    return;
  }
  const gunzip = zlib.createGunzip();
  const feeding = pipeline(rest(), gunzip).catch((error: unknown) => {
    gunzip.destroy(error as Error);
  });
  try {
    for await (const chunk of gunzip) yield chunk as Buffer;
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw refused(`the gzip stream is corrupt or truncated (${(error as Error).message})`);
  } finally {
    gunzip.destroy();
    await feeding;
    await iterator.return?.();
  }
}

export interface Unpacked {
  /** Relative paths of the files written, in bundle order. */
  files: string[];
  bytes: number;
}

/** Unpacks `body` into `dir` (which must exist and be empty). Throws HttpError 400/413. */
export async function unpackBundle(
  body: ReadableStream<Uint8Array> | null,
  dir: string,
  limits: BundleLimits,
): Promise<Unpacked> {
  if (!body) throw refused('the request has no body (send the bundle as a tar stream)');
  const extract = tar.extract();
  const files: string[] = [];
  const seen = new Set<string>();
  const folders = new Set<string>();
  let bytes = 0;

  let entryCount = 0;

  /** Records `name`'s folders, refusing a path that goes through a file. */
  const claimFolders = (name: string, self: boolean) => {
    const segments = name.split('/');
    const upTo = self ? segments.length : segments.length - 1;
    for (let i = 1; i <= upTo; i++) {
      const folder = segments.slice(0, i).join('/');
      if (seen.has(folder)) throw refused(`"${name}" needs "${folder}" as a folder, but it is a file`);
      folders.add(folder);
    }
  };

  const onEntry = async (header: tar.Header, stream: AsyncIterable<unknown>) => {
    if (header.type !== 'file' && header.type !== 'directory') {
      throw refused(`"${header.name}" is a ${header.type}; a bundle holds only files and folders`);
    }
    // Folders count too: a million empty folder entries cost as much as a million files.
    entryCount += 1;
    if (entryCount > limits.maxFiles) throw refused(`more than ${limits.maxFiles} entries`);
    const name = safeEntryName(header.name);
    const target = path.join(dir, name);
    if (header.type === 'directory') {
      claimFolders(name, true);
      await fs.promises.mkdir(target, { recursive: true, mode: 0o755 });
      for await (const _ of stream) {
        // a folder has no content; drained so the tar stream moves on
      }
      return;
    }
    if (seen.has(name)) throw refused(`"${name}" appears twice in the bundle`);
    if (folders.has(name)) throw refused(`"${name}" is both a folder and a file`);
    claimFolders(name, false);
    seen.add(name);
    files.push(name);
    bytes += header.size ?? 0;
    if (bytes > limits.maxBytes) throw tooLarge(limits.maxBytes);
    await fs.promises.mkdir(path.dirname(target), { recursive: true, mode: 0o755 });
    // 'wx': never through something already there (a name cleaned to an existing one cannot overwrite it).
    await pipeline(stream, fs.createWriteStream(target, { flags: 'wx', mode: 0o644 }));
  };

  const entries = new Promise<void>((resolve, reject) => {
    extract.on('entry', (header, stream, next) => {
      // The extractor destroys this stream when the tar ends mid-entry, maybe before onEntry reads it: without
      // a listener that error would be uncaught and stop the process. The extractor reports it too.
      stream.on('error', () => undefined);
      onEntry(header, stream).then(
        () => next(),
        (error: unknown) => {
          extract.destroy(error as Error);
        },
      );
    });
    extract.on('finish', () => resolve());
    extract.on('error', reject);
    extract.on('close', () => reject(refused('the tar stream ended early')));
  });
  entries.catch(() => undefined);

  const feed = async () => {
    for await (const chunk of decoded(counted(body, limits.maxBytes))) {
      if (extract.destroying) break;
      // A refused entry destroys the extractor: stop feeding it (its 'close' has been or will be emitted).
      if (!extract.write(chunk) && !extract.destroying) {
        await new Promise<void>((resolve) => {
          const done = () => {
            extract.off('drain', done);
            extract.off('close', done);
            resolve();
          };
          extract.on('drain', done);
          extract.on('close', done);
        });
      }
    }
    extract.end(null);
  };

  try {
    await feed();
  } catch (error) {
    extract.destroy(error as Error);
  }
  try {
    await entries;
  } catch (error) {
    if (error instanceof HttpError) throw error;
    // The server's own trouble writing the files (ENOSPC, EACCES) is not the bundle's fault: a 500, logged.
    if (typeof (error as NodeJS.ErrnoException).code === 'string') throw error;
    const message = (error as Error).message;
    // tar-stream's own words for a stream that stops mid-entry or a header that is not a tar header.
    throw refused(`the tar stream is truncated or corrupt (${message})`);
  }
  return { files, bytes };
}
