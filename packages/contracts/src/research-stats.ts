import * as v from 'valibot';

// Counts for the Research Center's tag and category filters, Analytics and the report.

export const NamedCountSchema = v.object({ name: v.string(), count: v.number() });
export const NamedCountListSchema = v.array(NamedCountSchema);

/** GET /api/stats: the caller's own research, for Analytics. */
export const StatsSchema = v.object({
  total: v.number(),
  published: v.number(),
  drafts: v.number(),
  views: v.number(),
  by_content_type: v.record(v.string(), v.number()),
});
export type Stats = v.InferOutput<typeof StatsSchema>;

/** GET /api/report: published research the caller may open, counted by type and visibility. */
export const ReportSchema = v.object({
  generated_at: v.string(),
  published: v.number(),
  by_content_type: v.record(v.string(), v.number()),
  by_visibility: v.record(v.string(), v.number()),
  top_posts: v.array(v.object({ id: v.number(), title: v.string(), views: v.number() })),
});
export type Report = v.InferOutput<typeof ReportSchema>;
