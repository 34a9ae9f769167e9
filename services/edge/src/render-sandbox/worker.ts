// One release's renderer, in a process of its own (docs/decisions/0036-render-sandbox.md): started by the
// edge's render pool (pool.ts) under Node's permission model, with an empty environment and, where the OS
// allows, no network and no view of other processes (launch.ts). It loads the release's server-render.mjs
// with only the imports lockdown.ts allows, then answers the edge's requests one line at a time:
//   node render-worker.mjs <server-render.mjs> <jsdom's api.js>
// Nothing here is trusted by the edge: it is code that the release's own code runs beside.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';
import { guardedRequire, lockDownProcess, withoutNetwork } from './lockdown';
import { ANSWER_FD, type WorkerAnswer, type WorkerRequest } from './protocol';

interface Renderer {
  serverRequests?: (path: string) => unknown;
  renderPage: (path: string, primed: Record<string, unknown>, o: { window?: unknown }) => unknown;
}

const [rendererFile = '', jsdomFile = ''] = process.argv.slice(2);
const messageOf = (error: unknown) =>
  error instanceof Error ? `${error.name}: ${error.message}` : `thrown: ${String(error)}`;

/** One answer line; a page that cannot be written as JSON (a cycle, a BigInt) is answered as an error. */
function send(answer: WorkerAnswer) {
  let line: string;
  try {
    line = JSON.stringify(answer);
  } catch (error) {
    line = JSON.stringify({ id: 'id' in answer ? answer.id : -1, ok: false, error: messageOf(error) });
  }
  fs.writeSync(ANSWER_FD, `${line}\n`);
}

/** jsdom, loaded from its own files (the permission model allows reading those): the window renders borrow. */
async function domWindow(): Promise<unknown> {
  if (!jsdomFile) return undefined;
  const { JSDOM } = (await import(pathToFileURL(jsdomFile).href)) as typeof import('jsdom');
  return withoutNetwork(new JSDOM('<!doctype html><html><head></head><body></body></html>').window as object);
}

/**
 * The release's bundle as an ES module whose imports are ours to give: `node:module` (the bundle's
 * `createRequire` banner) hands out the guarded require; any other import, static or dynamic, is refused.
 */
async function loadRenderer(file: string, load: (id: string) => unknown): Promise<Renderer> {
  const url = pathToFileURL(file).href;
  const require = guardedRequire(load);
  const moduleShim = new vm.SyntheticModule(
    ['createRequire', 'default'],
    function (this: vm.SyntheticModule) {
      this.setExport('createRequire', () => require);
      this.setExport('default', { createRequire: () => require });
    },
  );
  const module = new vm.SourceTextModule(fs.readFileSync(file, 'utf8'), {
    identifier: url,
    initializeImportMeta(meta) {
      meta.url = url;
    },
    importModuleDynamically: (() => {
      throw new Error('import() is not available to a server render');
    }) as never,
  });
  await module.link((specifier) => {
    if (specifier === 'node:module' || specifier === 'module') return moduleShim;
    throw new Error(`import "${specifier}" is not available to a server render`);
  });
  await module.evaluate();
  const renderer = module.namespace as Partial<Renderer>;
  if (typeof renderer.renderPage !== 'function') throw new Error('server-render.mjs exports no renderPage()');
  return renderer as Renderer;
}

function answer(renderer: Renderer, window: unknown, request: WorkerRequest): WorkerAnswer {
  try {
    if (request.op === 'requests') {
      return { id: request.id, ok: true, keys: renderer.serverRequests?.(request.path) ?? null };
    }
    return { id: request.id, ok: true, page: renderer.renderPage(request.path, request.primed, { window }) };
  } catch (error) {
    return { id: request.id, ok: false, error: messageOf(error) };
  }
}

async function main() {
  const load = createRequire(import.meta.url);
  let renderer: Renderer;
  let window: unknown;
  try {
    window = await domWindow();
    lockDownProcess(load);
    renderer = await loadRenderer(rendererFile, load);
  } catch (error) {
    send({ ready: false, error: messageOf(error) });
    process.exit(1);
  }
  let buffered = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk: string) => {
    buffered += chunk;
    for (let end = buffered.indexOf('\n'); end !== -1; end = buffered.indexOf('\n')) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      if (line) send(answer(renderer, window, JSON.parse(line) as WorkerRequest));
    }
  });
  // The edge went away: so does this worker.
  process.stdin.on('end', () => process.exit(0));
  send({ ready: true });
}

void main();
