import { describe, expect, it } from 'vitest';
import { entryIntegrityPlugin, pinEntry, pinnedIntegrity } from './entry-integrity';

const DIGEST = `sha384-${'Q'.repeat(64)}`;
const createScript = (url: string) =>
  (entryIntegrityPlugin().createScript as (args: { url: string }) => HTMLScriptElement | undefined)({ url });

describe('entry integrity', () => {
  it("makes the pinned entry's script itself, with the digest and a CORS-mode request", () => {
    pinEntry('/releases/mf-research/1.0.0-aaaaaaaaaa/mf-manifest.json', DIGEST);
    const url = `${window.location.origin}/releases/mf-research/1.0.0-aaaaaaaaaa/remoteEntry.js`;
    const script = createScript(url);
    expect(script).toBeInstanceOf(HTMLScriptElement);
    expect(script?.src).toBe(url);
    expect(script?.integrity).toBe(DIGEST);
    expect(script?.crossOrigin).toBe('anonymous');
  });

  it('leaves every other script (chunks, unpinned remotes) to the runtime', () => {
    pinEntry('http://localhost:3002/mf-manifest.json', null);
    expect(createScript('http://localhost:3002/remoteEntry.js')).toBeUndefined();
    expect(
      createScript(`${window.location.origin}/releases/mf-research/1.0.0-aaaaaaaaaa/123.abc.js`),
    ).toBeUndefined();
  });

  it('unpins when a remote is registered again without a digest', () => {
    pinEntry('http://localhost:3004/mf-manifest.json', DIGEST);
    expect(pinnedIntegrity('http://localhost:3004/remoteEntry.js')).toBe(DIGEST);
    pinEntry('http://localhost:3004/mf-manifest.json', null);
    expect(pinnedIntegrity('http://localhost:3004/remoteEntry.js')).toBeNull();
  });
});
