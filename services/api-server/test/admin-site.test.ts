import { API_PATHS } from '@app/contracts';
import { ADMIN_PATHS } from '@app/contracts/admin-paths';
import { SiteDetailsSchema } from '@app/contracts/site-admin';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { DEFAULT_SITE, siteFrom } from '../src/config-site';
import { startServer } from '../src/server';
import { TestServer, type TestUser, tempDatabase, testConfig } from './helpers';

/** Issue 34: the company's details, edited by administrators, with the environment winning at start. */

const IMPRESSUM = {
  name: 'Beispiel Analytics GmbH',
  street: 'Hauptweg 7',
  city: '99998 Neustadt',
  country: 'Germany',
  representative: 'Max Muster',
  email: 'legal@beispiel.example',
  phone: '+49 40 0000001',
  register: 'Amtsgericht Neustadt, HRB 11111',
  vatId: 'DE000000001',
};
const CONTACT = { email: 'hello@beispiel.example', phone: '+49 40 0000002', address: 'Hauptweg 7, Neustadt' };

/** A server on `database` (kept across restarts) with these SITE_* / CONTACT_* variables set. */
async function serverWith(database: ReturnType<typeof tempDatabase>, env: Record<string, string> = {}) {
  return new TestServer(await startServer({ ...testConfig(database), site: siteFrom(env) }));
}

async function auditRows(s: TestServer, target: string) {
  const rows = await s.sql.all<{ actor: string; action: string; target: string; detail: string }>(
    'SELECT actor, action, target, detail FROM admin_audit WHERE target = ? ORDER BY id',
    [target],
  );
  return rows.map((r) => ({ ...r, detail: JSON.parse(r.detail) }));
}

describe('admin site routes', () => {
  let s: TestServer;
  let admin: TestUser;
  let member: TestUser;
  beforeAll(async () => {
    s = await serverWith(tempDatabase());
    admin = await s.user(['admin'], 'admin');
    member = await s.user([], 'member');
  });
  afterAll(() => s.close());

  it('answers both records with the fictional defaults and no pinned field to an administrator only', async () => {
    expect((await s.get(ADMIN_PATHS.site)).status).toBe(401);
    expect((await s.get(ADMIN_PATHS.site, member.token)).status).toBe(403);
    const r = await s.get(ADMIN_PATHS.site, admin.token);
    expect(r.status).toBe(200);
    expect(v.is(SiteDetailsSchema, r.body)).toBe(true);
    expect(r.body.impressum).toEqual(DEFAULT_SITE.impressum);
    expect(r.body.contact).toEqual(DEFAULT_SITE.contact);
    expect(r.body.fromEnvironment).toEqual({ impressum: [], contact: [] });
  });

  it('refuses a guest and a member on both writes, and stores nothing', async () => {
    for (const path of [ADMIN_PATHS.siteImpressum, ADMIN_PATHS.siteContact]) {
      const body = path === ADMIN_PATHS.siteContact ? CONTACT : IMPRESSUM;
      expect((await s.put(path, body)).status).toBe(401);
      expect((await s.put(path, body, member.token)).status).toBe(403);
    }
    expect((await s.get(API_PATHS.publicImpressum)).body).toEqual(DEFAULT_SITE.impressum);
    expect(await auditRows(s, 'site:impressum')).toEqual([]);
  });

  it('answers 400 with the error per field for bad input, and stores and audits nothing', async () => {
    const bad = await s.put(ADMIN_PATHS.siteImpressum, { ...IMPRESSUM, email: 'not an email' }, admin.token);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      error: 'Email must be an email address',
      email: 'Email must be an email address',
    });
    const noName = await s.put(ADMIN_PATHS.siteImpressum, { ...IMPRESSUM, name: '  ' }, admin.token);
    expect(noName.status).toBe(400);
    expect(noName.body.name).toBe('Company name is required');
    const long = await s.put(ADMIN_PATHS.siteContact, { ...CONTACT, phone: '1'.repeat(51) }, admin.token);
    expect(long.status).toBe(400);
    expect(long.body.phone).toBe('Phone must be at most 50 characters');
    expect((await s.put(ADMIN_PATHS.siteContact, 'nope', admin.token)).status).toBe(400);
    expect((await s.get(API_PATHS.publicImpressum)).body).toEqual(DEFAULT_SITE.impressum);
    expect((await s.get(API_PATHS.publicContact)).body).toEqual(DEFAULT_SITE.contact);
    expect(await auditRows(s, 'site:impressum')).toEqual([]);
    expect(await auditRows(s, 'site:contact')).toEqual([]);
  });

  it('stores a valid Impressum, shows it on the public endpoint at once and audits what changed', async () => {
    const r = await s.put(
      ADMIN_PATHS.siteImpressum,
      { ...IMPRESSUM, name: `  ${IMPRESSUM.name} ` },
      admin.token,
    );
    expect(r.status).toBe(200);
    expect(v.is(SiteDetailsSchema, r.body)).toBe(true);
    expect(r.body.impressum).toEqual(IMPRESSUM);
    const shown = await s.get(API_PATHS.publicImpressum);
    expect(shown.body).toEqual(IMPRESSUM);
    expect(shown.headers.get('cache-control')).toBe('no-cache');
    const [row, ...more] = await auditRows(s, 'site:impressum');
    expect(more).toEqual([]);
    expect(row).toMatchObject({ actor: admin.username, action: 'site.impressum', target: 'site:impressum' });
    expect(row!.detail.changes.name).toEqual({ before: DEFAULT_SITE.impressum.name, after: IMPRESSUM.name });
    expect(Object.keys(row!.detail.changes).sort()).toEqual(
      Object.keys(IMPRESSUM)
        .filter((k) => k !== 'country')
        .sort(),
    );
  });

  it('stores empty optional fields as null (a dash on the page), and saving the same again audits nothing', async () => {
    const r = await s.put(
      ADMIN_PATHS.siteContact,
      { email: CONTACT.email, phone: '', address: null },
      admin.token,
    );
    expect(r.status).toBe(200);
    const shown = { email: CONTACT.email, phone: null, address: null };
    expect((await s.get(API_PATHS.publicContact)).body).toEqual(shown);
    const again = await s.put(ADMIN_PATHS.siteContact, shown, admin.token);
    expect(again.status).toBe(200);
    const rows = await auditRows(s, 'site:contact');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.action).toBe('site.contact');
    expect(rows[0]!.detail.changes).toEqual({
      email: { before: DEFAULT_SITE.contact.email, after: CONTACT.email },
      phone: { before: DEFAULT_SITE.contact.phone, after: null },
      address: { before: DEFAULT_SITE.contact.address, after: null },
    });
  });
});

describe('the environment at start', () => {
  it('a bad SITE_EMAIL stops the start with its name; a blank one counts as unset', () => {
    expect(() => loadConfig({ SITE_EMAIL: 'nope' })).toThrow(/SITE_EMAIL: Email must be an email address/);
    const blank = loadConfig({ SITE_PHONE: '  ', CONTACT_ADDRESS: ' Elm Row 2 ' }).site;
    expect(blank.fromEnvironment).toEqual({ impressum: {}, contact: { address: 'Elm Row 2' } });
    expect(blank.impressum.phone).toBe(DEFAULT_SITE.impressum.phone);
  });

  it("wins at every start for the variables set; what is unset keeps the administrator's edits", async () => {
    const database = tempDatabase();
    // First start with one variable set: defaults plus that variable.
    let s = await serverWith(database, { SITE_NAME: 'Env Name GmbH' });
    expect((await s.get(API_PATHS.publicImpressum)).body).toEqual({
      ...DEFAULT_SITE.impressum,
      name: 'Env Name GmbH',
    });
    let admin = await s.user(['admin'], 'admin');
    const first = await s.get(ADMIN_PATHS.site, admin.token);
    expect(first.body.fromEnvironment).toEqual({ impressum: ['name'], contact: [] });
    // An administrator edits everything, the pinned name too (allowed: it lasts until the next start).
    expect((await s.put(ADMIN_PATHS.siteImpressum, IMPRESSUM, admin.token)).status).toBe(200);
    expect((await s.put(ADMIN_PATHS.siteContact, CONTACT, admin.token)).status).toBe(200);
    await s.close();

    // Restart with SITE_NAME and CONTACT_PHONE: those two fields win, every other edit stays.
    s = await serverWith(database, { SITE_NAME: 'Env Name GmbH', CONTACT_PHONE: '+49 40 0000009' });
    expect((await s.get(API_PATHS.publicImpressum)).body).toEqual({ ...IMPRESSUM, name: 'Env Name GmbH' });
    expect((await s.get(API_PATHS.publicContact)).body).toEqual({ ...CONTACT, phone: '+49 40 0000009' });
    admin = await s.user(['admin'], 'admin');
    const pinned = await s.get(ADMIN_PATHS.site, admin.token);
    expect(pinned.body.fromEnvironment).toEqual({ impressum: ['name'], contact: ['phone'] });
    expect((await s.put(ADMIN_PATHS.siteImpressum, IMPRESSUM, admin.token)).status).toBe(200);
    await s.close();

    // Restart with nothing set: the last edit stays as it was, nothing goes back to a default.
    s = await serverWith(database);
    expect((await s.get(API_PATHS.publicImpressum)).body).toEqual(IMPRESSUM);
    expect((await s.get(API_PATHS.publicContact)).body).toEqual({ ...CONTACT, phone: '+49 40 0000009' });
    await s.close();
  });
});
