import type { Table } from './types';
import { bigint, bool, id, int, json, nocase, nullable, ref, text, time } from './types';

/**
 * What members and visitors read and write: posts and their terms, likes and comments, the counts kept from them, dashboards, the company's records, assessments and their leads, the admin audit and the mail outbox.
 * The schema as migrations 1 to 28 left it, on both engines (docs/decisions/0047-one-schema.md): never edited;
 * a later migration's changes (changes.ts) are applied on top of it.
 */
export const TABLES_CONTENT: Record<string, Table> = {
  posts: {
    watched: true,
    columns: {
      id: id(),
      slug: text({ unique: true }),
      title: text(),
      summary: text({ default: '' }),
      content: text(),
      excerpt: nullable(text()),
      status: text(),
      visibility: text(),
      content_type: text(),
      author_id: nullable(bigint(ref('users', 'set null'))),
      published_at: nullable(time()),
      created_at: time(),
      updated_at: time(),
      views: int({ default: 0 }),
      tags_json: text({ default: '[]' }),
      categories_json: text({ default: '[]' }),
      like_count: int({ default: 0, derived: 'like count' }),
      comment_count: int({ default: 0, derived: 'comment count' }),
      card_json: text({ default: '{}', derived: 'post card' }),
      author_name: nullable(text({ derived: 'author name' })),
    },
  },
  post_terms: {
    watched: true,
    primaryKey: ['post_id', 'kind', 'name'],
    columns: {
      post_id: bigint(ref('posts')),
      kind: text(),
      name: text(),
    },
  },
  post_likes: {
    watched: true,
    primaryKey: ['post_id', 'user_id'],
    columns: {
      post_id: bigint(ref('posts')),
      user_id: bigint(ref('users')),
    },
  },
  comments: {
    watched: true,
    columns: {
      id: id(),
      post_id: bigint(ref('posts')),
      author_id: nullable(bigint(ref('users'))),
      content: text(),
      created_at: time(),
      updated_at: time(),
    },
  },
  comment_likes: {
    watched: true,
    primaryKey: ['comment_id', 'user_id'],
    columns: {
      comment_id: bigint(ref('comments')),
      user_id: bigint(ref('users')),
    },
  },
  post_counts: {
    primaryKey: ['content_type', 'visibility'],
    columns: {
      content_type: text(),
      visibility: text(),
      n: int({ derived: 'post counts' }),
    },
  },
  term_counts: {
    primaryKey: ['kind', 'visibility', 'name'],
    columns: {
      kind: text(),
      name: text(),
      visibility: text(),
      n: int({ derived: 'term counts' }),
    },
  },
  dashboards: {
    watched: true,
    primaryKey: ['slug'],
    columns: {
      slug: text(),
      title: text(),
      description: text(),
      position: int({ default: 0 }),
    },
  },
  site_records: {
    watched: true,
    primaryKey: ['key'],
    columns: {
      key: text(),
      value: text(),
    },
  },
  market_assessments: {
    watched: true,
    columns: {
      id: id(),
      idempotency_key: nullable(text({ unique: true })),
      user_id: nullable(bigint(ref('users', 'set null'))),
      email: nocase(),
      payload: json(),
      created_at: time(),
      industry: text({ default: '' }),
      company_size: text({ default: '' }),
      urgency: text({ default: '' }),
      consultation: bool({ default: false }),
      contacted_at: nullable(bigint()),
      contacted_by: nullable(text()),
      contacted_note: text({ default: '' }),
    },
  },
  lead_counts: {
    primaryKey: ['consultation', 'contacted', 'urgency', 'industry', 'company_size'],
    columns: {
      consultation: bool(),
      contacted: bool(),
      urgency: text(),
      industry: text(),
      company_size: text(),
      n: int({ derived: 'lead counts' }),
    },
  },
  admin_audit: {
    columns: {
      id: id(),
      at: bigint(),
      actor_id: nullable(bigint()),
      actor: text(),
      action: text(),
      target: text(),
      detail: json({ default: '{}' }),
    },
  },
  outbox: {
    columns: {
      id: id(),
      kind: text(),
      to_address: text(),
      subject: text(),
      text_body: text(),
      html_body: text(),
      created_at: bigint(),
      status: text({ default: 'pending' }),
      attempts: int({ default: 0 }),
      next_attempt_at: bigint(),
      last_error: nullable(text()),
      sent_at: nullable(bigint()),
      claimed_until: nullable(bigint()),
      sealed_secret: nullable(text()),
    },
  },
  outbox_attempts: {
    columns: {
      id: id(),
      outbox_id: bigint(ref('outbox')),
      at: bigint(),
      ok: bool(),
      error: nullable(text()),
    },
  },
};
