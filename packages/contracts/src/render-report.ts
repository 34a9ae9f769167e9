import { EnvironmentNameSchema, REMOTE_PACKAGES, SERVER_TRACKS, VersionIdSchema } from '@app/rollout';
import * as v from 'valibot';

/**
 * What the edges send the API about their server renders (issue 48, docs/decisions/0043-…): server to server
 * only. Its own entry, so the shared contracts every visitor's browser loads do not carry these schemas
 * (module-level valibot calls are not tree-shaken from a shared module).
 */
const RemoteSchema = v.picklist(REMOTE_PACKAGES, 'Unknown remote');

const Count = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(10_000_000));

/** One minute of one edge's server renders of one version on one track (docs/decisions/0043-…). */
export const RenderFiguresEntrySchema = v.pipe(
  v.strictObject({
    remote: RemoteSchema,
    version: VersionIdSchema,
    track: v.picklist(SERVER_TRACKS, 'track must be stable or canary'),
    /** Minutes since the epoch. */
    minute: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(1e9)),
    renders: v.pipe(Count, v.minValue(1)),
    failures: Count,
    slow: Count,
    durationMs: v.pipe(v.number(), v.minValue(0), v.maxValue(1e12)),
  }),
  v.check(
    (e) => e.failures <= e.renders && e.slow <= e.renders,
    'more failures or slow renders than renders',
  ),
);
export type RenderFiguresEntry = v.InferOutput<typeof RenderFiguresEntrySchema>;

/** What an edge sends every ~10 s (and when it stops): signed, see @app/rollout/node render-report. */
export const RenderReportSchema = v.strictObject({
  /** A random id per batch: the API stores each once (a batch sent again within its window is refused). */
  id: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{16,64}$/, 'id must be 16-64 url-safe characters')),
  environment: EnvironmentNameSchema,
  entries: v.pipe(
    v.array(RenderFiguresEntrySchema),
    v.minLength(1, 'entries must not be empty'),
    v.maxLength(500, 'at most 500 entries a batch'),
  ),
});
export type RenderReport = v.InferOutput<typeof RenderReportSchema>;
