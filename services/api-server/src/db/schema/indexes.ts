import type { Index } from './types';

/**
 * The indexes made with CREATE INDEX that both engines have, as migrations 1 to 28 left them. A column may say
 * DESC (the order it is kept in); an expression is in parentheses. What one engine has alone is in engines.ts.
 */
export const INDEXES_28: Record<string, Index> = {
  idx_admin_audit_at: { table: 'admin_audit', columns: ['at DESC', 'id DESC'] },
  idx_comments_post: { table: 'comments', columns: ['post_id', 'created_at'] },
  idx_deploy_audit_env_remote: { table: 'deploy_audit', columns: ['environment', 'remote', 'id'] },
  idx_deploy_overrides_env: { table: 'deploy_overrides', columns: ['environment', 'expires_at'] },
  idx_deploy_previews_env: { table: 'deploy_previews', columns: ['environment', 'expires_at'] },
  idx_deploy_previews_release: { table: 'deploy_previews', columns: ['remote', 'version'] },
  idx_email_changes_user: { table: 'email_changes', columns: ['user_id'] },
  idx_leads_list: {
    table: 'market_assessments',
    columns: [
      'created_at DESC',
      'id DESC',
      'consultation',
      'urgency',
      'industry',
      'company_size',
      'contacted_at',
    ],
  },
  idx_market_assessments_email: { table: 'market_assessments', columns: ['email', 'created_at'] },
  idx_outbox_attempts_mail: { table: 'outbox_attempts', columns: ['outbox_id', 'id'] },
  idx_outbox_due: { table: 'outbox', columns: ['status', 'next_attempt_at'] },
  idx_outbox_recipient: { table: 'outbox', columns: ['lower(to_address)', 'kind', 'created_at'] },
  idx_password_resets_user: { table: 'password_resets', columns: ['user_id'] },
  idx_post_likes_user: { table: 'post_likes', columns: ['user_id'] },
  idx_post_terms_name: { table: 'post_terms', columns: ['kind', 'name'] },
  idx_posts_author: { table: 'posts', columns: ['author_id', 'created_at DESC', 'id DESC'] },
  idx_posts_status_published: {
    table: 'posts',
    columns: ['status', 'published_at DESC', 'id DESC', 'visibility', 'author_id', 'content_type'],
  },
  idx_posts_views: { table: 'posts', columns: ['status', 'views DESC', 'id'] },
  idx_posts_without_excerpt: { table: 'posts', columns: ['id'], where: 'excerpt IS NULL' },
  idx_rate_limit_counters_reset: { table: 'rate_limit_counters', columns: ['reset_at'] },
  idx_rate_limit_refusals_last: { table: 'rate_limit_refusals', columns: ['last_at'] },
  idx_rollout_render_figures_minute: { table: 'rollout_render_figures', columns: ['minute'] },
  idx_rollout_signals_at: { table: 'rollout_health_signals', columns: ['at'] },
  idx_rollout_signals_env_version_at: {
    table: 'rollout_health_signals',
    columns: ['environment', 'remote', 'version', 'at'],
  },
  idx_rollout_signals_once: {
    table: 'rollout_health_signals',
    columns: ['ticket', 'remote', 'version', 'kind'],
    unique: true,
  },
  idx_sessions_public_id: { table: 'sessions', columns: ['public_id'], unique: true },
  idx_sessions_user: { table: 'sessions', columns: ['user_id'] },
  idx_users_admin_order: { table: 'users', columns: ['is_active', 'created_at DESC', 'id DESC'] },
  idx_users_pending_from: { table: 'users', columns: ['registered_from'], where: 'is_active = FALSE' },
};
