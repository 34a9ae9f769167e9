import type {
  Contact,
  Dashboard,
  DashboardDetail,
  DashboardIndicator,
  Impressum,
  MarketAssessment,
} from '@app/contracts';
import { type DB, writeTransaction } from '../db/database';

export interface StoredResponse {
  status: 201;
  body: { id: number; message: string };
}

export const ASSESSMENT_MESSAGE =
  'Thank you! Your assessment has been received. Your premium insights and consultation details are on their way.';

/** Dashboards, the impressum and contact records, and market assessment submissions. */
export class SiteService {
  constructor(private readonly db: DB) {}

  dashboards(): Dashboard[] {
    return this.db
      .prepare('SELECT slug, title, description FROM dashboards ORDER BY position, slug')
      .all() as Dashboard[];
  }

  /** One dashboard with its indicators' series, or null for an unknown slug. */
  dashboard(slug: string): DashboardDetail | null {
    const row = this.db.prepare('SELECT slug, title, description FROM dashboards WHERE slug = ?').get(slug) as
      | Dashboard
      | undefined;
    if (!row) return null;
    return { ...row, indicators: this.record<DashboardIndicator[]>(this.indicatorsKey(slug), []) };
  }

  indicatorsKey(slug: string): string {
    return `dashboard:${slug}`;
  }

  setIndicators(slug: string, indicators: readonly DashboardIndicator[]) {
    this.write(this.indicatorsKey(slug), indicators);
  }

  private record<T>(key: string, fallback: T): T {
    const row = this.db.prepare('SELECT value FROM site_records WHERE key = ?').pluck().get(key) as
      | string
      | undefined;
    return row ? (JSON.parse(row) as T) : fallback;
  }

  impressum(): Impressum {
    return this.record<Impressum>('impressum', {
      name: null,
      street: null,
      city: null,
      country: null,
      representative: null,
      email: null,
      phone: null,
      register: null,
      vatId: null,
    });
  }

  contact(): Contact {
    return this.record<Contact>('contact', { email: null, phone: null, address: null });
  }

  setRecord(key: 'impressum' | 'contact', value: unknown) {
    this.write(key, value);
  }

  private write(key: string, value: unknown) {
    this.db
      .prepare(
        'INSERT INTO site_records (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
      )
      .run(key, JSON.stringify(value));
  }

  /**
   * Stores one submission. With an idempotency key, a repeat returns the first answer and stores nothing;
   * the UNIQUE index settles two concurrent repeats. An email already received within `repeatWindowMs`
   * is a repeat too (a double submit, a reload, a script): the same 201 with the first id, stored once.
   * The check and the insert share one IMMEDIATE transaction, so two API instances cannot both insert.
   */
  submitAssessment(
    payload: MarketAssessment,
    userId: number | null,
    idempotencyKey: string | null,
    repeat: { repeatWindowMs: number; now: number } = { repeatWindowMs: 0, now: Date.now() },
  ): StoredResponse {
    const answer = (id: number): StoredResponse => ({
      status: 201,
      body: { id, message: ASSESSMENT_MESSAGE },
    });
    const byKey = (key: string) =>
      this.db.prepare('SELECT id FROM market_assessments WHERE idempotency_key = ?').pluck().get(key) as
        | number
        | undefined;
    const byEmail = () =>
      this.db
        .prepare(
          `SELECT id FROM market_assessments WHERE email = ? COLLATE NOCASE AND created_at >= ?
           ORDER BY created_at DESC LIMIT 1`,
        )
        .pluck()
        .get(payload.email.trim(), new Date(repeat.now - repeat.repeatWindowMs).toISOString()) as
        | number
        | undefined;
    return writeTransaction(this.db, (): StoredResponse => {
      const known =
        (idempotencyKey ? byKey(idempotencyKey) : undefined) ??
        (repeat.repeatWindowMs > 0 ? byEmail() : undefined);
      if (known !== undefined) return answer(known);
      const info = this.db
        .prepare(
          `INSERT INTO market_assessments (idempotency_key, user_id, email, payload, created_at)
             VALUES (?, ?, ?, ?, ?) ON CONFLICT(idempotency_key) DO NOTHING`,
        )
        .run(
          idempotencyKey,
          userId,
          payload.email,
          JSON.stringify(payload),
          new Date(repeat.now).toISOString(),
        );
      return answer(info.changes === 1 ? Number(info.lastInsertRowid) : byKey(idempotencyKey!)!);
    });
  }
}
