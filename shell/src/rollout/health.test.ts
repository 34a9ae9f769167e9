import type { RemoteChoice } from '@app/rollout';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  configureHealthReports,
  flushHealthReports,
  pendingHealthEvents,
  reportHealth,
  sendWhenHidden,
} from './health';
import { releaseOfError, releaseSources, watchRuntimeErrors } from './runtime-errors';

const TICKET = { ticket: 'claims.signature', expiresAt: Date.now() + 3_600_000 };
const STABLE = 'http://localhost:3000/releases/mf-research/1.0.0-aaaaaaaaaa/mf-manifest.json';
const CANARY = 'http://localhost:3000/releases/mf-research/1.1.0-bbbbbbbbbb/mf-manifest.json';
const research: RemoteChoice = {
  remote: 'mf-research',
  entry: CANARY,
  version: '1.1.0-bbbbbbbbbb',
  track: 'canary',
  integrity: 'sha384-x',
  fallback: { entry: STABLE, version: '1.0.0-aaaaaaaaaa', track: 'stable', integrity: 'sha384-y' },
};
const account: RemoteChoice = {
  remote: 'mf-account',
  entry: 'http://localhost:3001/mf-manifest.json',
  version: null,
  track: 'config',
  integrity: null,
  fallback: null,
};

let beacon: ReturnType<typeof vi.fn>;
const sent = () =>
  beacon.mock.calls.map(([url, body]) => ({
    url,
    ...(JSON.parse(body as string) as { ticket: string; events: object[] }),
  }));

beforeEach(() => {
  beacon = vi.fn(() => true);
  Object.defineProperty(navigator, 'sendBeacon', { value: beacon, configurable: true });
  configureHealthReports('http://api.test', TICKET);
});
afterEach(() => vi.restoreAllMocks());

describe('health reports', () => {
  it('are sent once the page is hidden, with the ticket, as one text/plain beacon', () => {
    reportHealth(research, 'load', 312.4);
    reportHealth(research, 'lcp', 1234.6);
    reportHealth(research, 'cls', 0.123456);
    sendWhenHidden();
    expect(beacon).not.toHaveBeenCalled();
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
    expect(sent()).toEqual([
      {
        url: 'http://api.test/api/rollout/health',
        ticket: TICKET.ticket,
        events: [
          { remote: 'mf-research', version: '1.1.0-bbbbbbbbbb', kind: 'load', value: 312 },
          { remote: 'mf-research', version: '1.1.0-bbbbbbbbbb', kind: 'lcp', value: 1235 },
          { remote: 'mf-research', version: '1.1.0-bbbbbbbbbb', kind: 'cls', value: 0.1235 },
        ],
      },
    ]);
    expect(typeof beacon.mock.calls[0]?.[1]).toBe('string'); // a string: text/plain, no preflight
    // A few hundred bytes.
    expect(String(beacon.mock.calls[0]?.[1]).length).toBeLessThan(400);
    Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
  });

  it('send each kind once per version: a page hidden twice sends only what is new', () => {
    reportHealth(research, 'runtime-error');
    reportHealth(research, 'runtime-error');
    flushHealthReports();
    reportHealth(research, 'runtime-error');
    reportHealth(research, 'inp', 80);
    flushHealthReports();
    expect(sent().map((r) => r.events)).toEqual([
      [{ remote: 'mf-research', version: '1.1.0-bbbbbbbbbb', kind: 'runtime-error' }],
      [{ remote: 'mf-research', version: '1.1.0-bbbbbbbbbb', kind: 'inp', value: 80 }],
    ]);
  });

  it('are not made without a ticket, for a config.json URL, or once the ticket has expired', () => {
    reportHealth(account, 'load', 10);
    expect(pendingHealthEvents()).toEqual([]);
    configureHealthReports('http://api.test', null);
    reportHealth(research, 'load', 10);
    expect(flushHealthReports()).toBe(0);
    configureHealthReports('http://api.test', { ...TICKET, expiresAt: Date.now() - 1 });
    reportHealth(research, 'load', 10);
    expect(flushHealthReports()).toBe(0);
    expect(beacon).not.toHaveBeenCalled();
  });

  it('fall back to a keepalive fetch when the browser refuses the beacon', () => {
    beacon.mockReturnValue(false);
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(null, { status: 204 }));
    reportHealth(research, 'load', 5);
    flushHealthReports();
    expect(fetchSpy).toHaveBeenCalledWith(
      'http://api.test/api/rollout/health',
      expect.objectContaining({ method: 'POST', keepalive: true }),
    );
  });
});

describe('runtime errors', () => {
  const sources = releaseSources({ mf_research: research, mf_account: account });

  it('are charged to the release whose file is in the stack, the canary or the stable it fell back to', () => {
    const stack = (url: string) =>
      `TypeError: boom\n    at onClick (${url}:1:2345)\n    at x (http://localhost:3000/main.js:1:1)`;
    expect(releaseOfError(sources, stack(CANARY.replace('mf-manifest.json', '123.abc.js')))).toMatchObject({
      remote: 'mf-research',
      version: '1.1.0-bbbbbbbbbb',
    });
    expect(releaseOfError(sources, stack(STABLE.replace('mf-manifest.json', '9.js')))?.version).toBe(
      '1.0.0-aaaaaaaaaa',
    );
    // The shell's own code, an extension, a config URL's remote: nobody's release.
    expect(releaseOfError(sources, 'Error\n    at http://localhost:3000/main.js:1:1')).toBeNull();
    expect(releaseOfError(sources, 'Error\n    at chrome-extension://abc/x.js:1:1')).toBeNull();
    expect(releaseOfError(sources, undefined, 'http://localhost:3001/remoteEntry.js')).toBeNull();
    expect(
      releaseOfError(sources, undefined, CANARY.replace('mf-manifest.json', 'remoteEntry.js'))?.version,
    ).toBe('1.1.0-bbbbbbbbbb');
  });

  it('reach the report from window error and unhandledrejection events', () => {
    watchRuntimeErrors(sources);
    const error = new Error('click handler failed');
    error.stack = `Error: click handler failed\n    at h (${CANARY.replace('mf-manifest.json', '5.js')}:1:10)`;
    window.dispatchEvent(new ErrorEvent('error', { error, filename: 'http://localhost:3000/main.js' }));
    const rejection = new Error('async failure');
    rejection.stack = `Error\n    at h (${STABLE.replace('mf-manifest.json', '7.js')}:1:10)`;
    const event = new Event('unhandledrejection') as Event & { reason: unknown };
    event.reason = rejection;
    window.dispatchEvent(event);
    expect(pendingHealthEvents()).toEqual([
      { remote: 'mf-research', version: '1.1.0-bbbbbbbbbb', kind: 'runtime-error' },
      { remote: 'mf-research', version: '1.0.0-aaaaaaaaaa', kind: 'runtime-error' },
    ]);
  });
});
