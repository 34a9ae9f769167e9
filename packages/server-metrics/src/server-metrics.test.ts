import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { methodLabel, metricsEndpoint, seriesCount, serviceRegistry, statusClass } from './server-metrics';

describe('labels from closed sets', () => {
  it('a status is its class', () => {
    expect([101, 200, 204, 303, 404, 429, 500, 503].map(statusClass)).toEqual([
      '1xx',
      '2xx',
      '2xx',
      '3xx',
      '4xx',
      '4xx',
      '5xx',
      '5xx',
    ]);
  });

  it('a method the product does not answer is "other"', () => {
    expect(['GET', 'POST', 'PROPFIND', 'get', undefined].map(methodLabel)).toEqual([
      'GET',
      'POST',
      'other',
      'other',
      'other',
    ]);
  });
});

describe('metricsEndpoint', () => {
  const registry = serviceRegistry({ service: 'api', processMetrics: false });
  const serve = metricsEndpoint(registry, (res) => {
    res.writeHead(404);
    res.end('nope');
  });
  const server = http.createServer((req, res) => {
    if (serve(req, res)) return;
    res.end('other');
  });
  let url = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('answers loopback in the text format, with the build info', async () => {
    const response = await fetch(`${url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain; version=0.0.4');
    expect(await response.text()).toMatch(/^api_build_info\{version="[^"]+"\} 1$/m);
    expect(await seriesCount(registry)).toBe(1);
  });

  it('a proxied request, or another method, gets the 404; other paths pass', async () => {
    const proxied = await fetch(`${url}/metrics`, { headers: { 'X-Forwarded-For': '127.0.0.1' } });
    expect([proxied.status, await proxied.text()]).toEqual([404, 'nope']);
    expect((await fetch(`${url}/metrics`, { method: 'POST' })).status).toBe(404);
    expect(await (await fetch(`${url}/metricsx`)).text()).toBe('other');
  });
});
