import { api } from '@app/api-client';
import { API_PATHS, type DashboardDetail, DashboardDetailSchema } from '@app/contracts';

export function getDashboard(slug: string, signal?: AbortSignal): Promise<DashboardDetail> {
  return api.get(API_PATHS.dashboard(slug), DashboardDetailSchema, { signal });
}
