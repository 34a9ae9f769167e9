import { type DeploymentManifest, parseManifest } from '@app/rollout';
import { fetchJsonOnce } from '../early/fetch-once';

/**
 * The environment's deployment manifest, fetched at startup (served no-cache). Without it the shell still
 * starts: every remote then comes from its config.json URL, so a broken manifest never blanks the page.
 */
export async function loadDeployment(
  manifestUrl: string,
  timeoutMs = 5000,
): Promise<DeploymentManifest | null> {
  try {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    });
    const fetched = await Promise.race([fetchJsonOnce(manifestUrl), timeout]).finally(() =>
      clearTimeout(timer),
    );
    if (fetched.status === 404) return null;
    if (!fetched.ok) throw new Error(`answered ${fetched.status}`);
    return parseManifest(fetched.body);
  } catch (error) {
    console.warn(`Deployment manifest ${manifestUrl} unusable, using config.json's remote URLs:`, error);
    return null;
  }
}
