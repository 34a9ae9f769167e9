import { api, isStatus } from '@app/api-client';
import { API_PATHS, type MarketAssessment } from '@app/contracts';

/** 'absent': the deployment has no survey endpoint, which SPEC §7 counts as success. */
export type SubmitOutcome = 'stored' | 'absent';

/**
 * POST /api/market-assessment. The Idempotency-Key makes a repeated submit of one draft safe: the server
 * answers a repeat with the first result instead of storing a second row. Any other failure throws.
 */
export async function submitAssessment(
  payload: MarketAssessment,
  idempotencyKey: string,
): Promise<SubmitOutcome> {
  try {
    // The response body is not part of the contract (SPEC §7), so any 2xx is success.
    await api.post(API_PATHS.marketAssessment, payload, null, {
      headers: { 'Idempotency-Key': idempotencyKey },
    });
    return 'stored';
  } catch (error) {
    if (isStatus(error, 404)) return 'absent';
    throw error;
  }
}
