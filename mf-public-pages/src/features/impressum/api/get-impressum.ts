import { api } from '@app/api-client';
import { API_PATHS, type Impressum, ImpressumSchema } from '@app/contracts';

export function getImpressum(signal?: AbortSignal): Promise<Impressum> {
  return api.get(API_PATHS.publicImpressum, ImpressumSchema, { signal });
}
