import { API_PATHS, DashboardDetailSchema, type DashboardListSchema } from '@app/contracts';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers';

let s: TestServer;
beforeAll(async () => {
  // Dashboards are base data: they exist without the demo posts.
  s = await startTestServer({ seedDemo: false });
});
afterAll(() => s.close());

describe('GET /api/dashboards/{slug}', () => {
  it('answers every listed dashboard with its title, description and monthly series, to guests', async () => {
    const list: v.InferOutput<typeof DashboardListSchema> = (await s.get(API_PATHS.dashboards)).body;
    expect(list.length).toBe(4);
    for (const d of list) {
      const r = await s.get(API_PATHS.dashboard(d.slug));
      expect(r.status).toBe(200);
      expect(v.is(DashboardDetailSchema, r.body)).toBe(true);
      expect(r.body).toMatchObject({ slug: d.slug, title: d.title, description: d.description });
      expect(r.body.indicators.length).toBeGreaterThanOrEqual(3);
      for (const indicator of r.body.indicators) {
        expect(indicator.title).not.toBe('');
        expect(indicator.points).toHaveLength(12);
        const periods = indicator.points.map((p: { period: string }) => p.period);
        expect(periods.every((p: string) => /^\d{4}-(0[1-9]|1[0-2])$/.test(p))).toBe(true);
        // Oldest first, one point per month, so a chart can draw them in order.
        expect([...periods].sort()).toEqual(periods);
        expect(new Set(periods).size).toBe(periods.length);
      }
    }
  });

  it('serves the stored series of one dashboard', async () => {
    const r = await s.get(API_PATHS.dashboard('supply-chain-monitor'));
    const freight = r.body.indicators.find((i: { id: string }) => i.id === 'freight');
    expect(freight).toMatchObject({ title: 'Container freight rate', unit: 'USD' });
    expect(freight.points[0]).toEqual({ period: '2025-04', value: 2850 });
    expect(freight.points.at(-1)).toEqual({ period: '2026-03', value: 3180 });
  });

  it('answers 404 with an error for an unknown dashboard', async () => {
    const r = await s.get(API_PATHS.dashboard('no-such-dashboard'));
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: 'Dashboard not found' });
  });

  it('answers 400 with an error for an id no dashboard can have', async () => {
    for (const bad of ['Risk-Radar', 'risk--radar', '-risk', 'risk radar', "x' OR '1'='1", 'a'.repeat(81)]) {
      const r = await s.get(API_PATHS.dashboard(bad));
      expect(r.status, bad).toBe(400);
      expect(typeof r.body.error).toBe('string');
      expect(r.body.error).toMatch(/^Dashboard id/);
    }
  });

  it('a dashboard without stored series answers an empty indicator list', async () => {
    await s.sql.run('INSERT INTO dashboards (slug, title, description, position) VALUES (?, ?, ?, ?)', [
      'hiring-tracker',
      'Hiring Tracker',
      'Vacancies and wages.',
      9,
    ]);
    const r = await s.get(API_PATHS.dashboard('hiring-tracker'));
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      slug: 'hiring-tracker',
      title: 'Hiring Tracker',
      description: 'Vacancies and wages.',
      indicators: [],
    });
  });
});
