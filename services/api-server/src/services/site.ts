import type {
  Contact,
  Dashboard,
  DashboardDetail,
  DashboardIndicator,
  Impressum,
  MarketAssessment,
} from '@app/contracts';
import type { SiteRecordKey } from '@app/contracts/site-admin';
import { dialectSql } from '../db/dialect';
import type { Sql } from '../db/sql';
import type { Mailer } from '../mail/mailer';

export interface StoredResponse {
  status: 201;
  body: { id: number; message: string };
}

/** The company's two records by their key in site_records. */
export interface SiteRecords {
  impressum: Impressum;
  contact: Contact;
}
/** What an edit changed: per field, the value before and after (the audit's detail). */
export type FieldChanges = Record<string, { before: string | null; after: string | null }>;

/** A record not stored yet reads as empty: every line of the page shows a dash. */
const EMPTY: SiteRecords = {
  impressum: {
    name: null,
    street: null,
    city: null,
    country: null,
    representative: null,
    email: null,
    phone: null,
    register: null,
    vatId: null,
  },
  contact: { email: null, phone: null, address: null },
};

export const ASSESSMENT_MESSAGE =
  'Thank you! Your assessment has been received. Your premium insights and consultation details are on their way.';

/** Dashboards, the impressum and contact records, and market assessment submissions. */
export class SiteService {
  constructor(
    private readonly sql: Sql,
    /** The visitor's mail and the admins' consultation notice go out with a stored assessment (issue 34). */
    private readonly mailer: Mailer | null = null,
  ) {}

  dashboards(): Promise<Dashboard[]> {
    return this.sql.all<Dashboard>('SELECT slug, title, description FROM dashboards ORDER BY position, slug');
  }

  /** One dashboard with its indicators' series, or null for an unknown slug. */
  async dashboard(slug: string): Promise<DashboardDetail | null> {
    const row = await this.sql.get<Dashboard>(
      'SELECT slug, title, description FROM dashboards WHERE slug = ?',
      [slug],
    );
    if (!row) return null;
    return { ...row, indicators: await this.record<DashboardIndicator[]>(this.indicatorsKey(slug), []) };
  }

  indicatorsKey(slug: string): string {
    return `dashboard:${slug}`;
  }

  setIndicators(slug: string, indicators: readonly DashboardIndicator[]): Promise<void> {
    return this.write(this.indicatorsKey(slug), indicators);
  }

  private async record<T>(key: string, fallback: T, db: Sql = this.sql): Promise<T> {
    const row = await db.value<string>('SELECT value FROM site_records WHERE key = ?', [key]);
    return row ? (JSON.parse(row) as T) : fallback;
  }

  impressum(db: Sql = this.sql): Promise<Impressum> {
    return this.record<Impressum>('impressum', EMPTY.impressum, db);
  }

  contact(db: Sql = this.sql): Promise<Contact> {
    return this.record<Contact>('contact', EMPTY.contact, db);
  }

  setRecord(key: SiteRecordKey, value: unknown, db: Sql = this.sql): Promise<void> {
    return this.write(key, value, db);
  }

  /**
   * Lays `fields` over the stored record, or over `initial` when none is stored yet, in one transaction
   * (writers take turns, so two instances starting at once, or a start beside an administrator's save, lose
   * nothing). The start uses it for the SITE_* / CONTACT_* variables that are set: they win over an edit.
   */
  overlay<K extends SiteRecordKey>(
    key: K,
    initial: SiteRecords[K],
    fields: Partial<SiteRecords[K]>,
  ): Promise<void> {
    return this.sql.transaction(async (tx) => {
      // Read and written whole: two edits at once take turns, or one would undo the other's fields.
      await tx.lock('site-record', key);
      const stored = await this.record<SiteRecords[K] | null>(key, null, tx);
      await this.write(key, { ...(stored ?? initial), ...fields }, tx);
    });
  }

  /**
   * An administrator's edit: the whole record replaced by `next`, and `alongside` (the audit) given what
   * changed, field by field, in the same transaction. Nothing changed writes nothing and audits nothing.
   */
  replace<K extends SiteRecordKey>(
    key: K,
    next: SiteRecords[K],
    alongside: (tx: Sql, changes: FieldChanges) => Promise<void>,
  ): Promise<SiteRecords[K]> {
    return this.sql.transaction(async (tx) => {
      await tx.lock('site-record', key);
      const before = await this.record<SiteRecords[K]>(key, EMPTY[key], tx);
      const changes: FieldChanges = {};
      for (const [field, after] of Object.entries(next) as [string, string | null][]) {
        const was = (before as Record<string, string | null>)[field] ?? null;
        if (was !== after) changes[field] = { before: was, after };
      }
      if (Object.keys(changes).length === 0) return before;
      await this.write(key, next, tx);
      await alongside(tx, changes);
      return next;
    });
  }

  private async write(key: string, value: unknown, db: Sql = this.sql): Promise<void> {
    await db.run(
      'INSERT INTO site_records (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
      [key, JSON.stringify(value)],
    );
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
    repeat: { repeatWindowMs: number; now: number },
  ): Promise<StoredResponse> {
    const answer = (id: number): StoredResponse => ({
      status: 201,
      body: { id, message: ASSESSMENT_MESSAGE },
    });
    const byKey = (tx: Sql, key: string) =>
      tx.value<number>('SELECT id FROM market_assessments WHERE idempotency_key = ?', [key]);
    const byEmail = (tx: Sql) =>
      tx.value<number>(
        `SELECT id FROM market_assessments WHERE email = ? ${dialectSql(this.sql.dialect).nocase} AND created_at >= ?
         ORDER BY created_at DESC LIMIT 1`,
        [payload.email.trim(), new Date(repeat.now - repeat.repeatWindowMs).toISOString()],
      );
    return this.sql.transaction(async (tx): Promise<StoredResponse> => {
      // One email's submissions take turns (no constraint says "one per window"): the second sees the first.
      if (repeat.repeatWindowMs > 0) await tx.lock('assessment', payload.email.trim().toLowerCase());
      const known =
        (idempotencyKey ? await byKey(tx, idempotencyKey) : undefined) ??
        (repeat.repeatWindowMs > 0 ? await byEmail(tx) : undefined);
      if (known !== undefined) return answer(known);
      // The answers /admin/leads filters on are also columns (migrations 13 and 14 index and count them).
      const id = await tx.value<number>(
        `INSERT INTO market_assessments (idempotency_key, user_id, email, payload, created_at, industry,
           company_size, urgency, consultation)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(idempotency_key) DO NOTHING RETURNING id`,
        [
          idempotencyKey,
          userId,
          payload.email,
          JSON.stringify(payload),
          new Date(repeat.now).toISOString(),
          payload.industry,
          payload.companySize,
          payload.urgency ?? '',
          payload.consultationInterest ? 1 : 0,
        ],
      );
      if (id === undefined) return answer((await byKey(tx, idempotencyKey!))!);
      await this.mailer?.assessmentReceived(tx, id, payload);
      return answer(id);
    });
  }
}
