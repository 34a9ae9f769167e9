import { type DeploymentManifest, parseManifest } from '@app/rollout';

/**
 * The environment's deployment manifest, fetched at startup (served no-cache). Without it the shell still
 * starts: every remote then comes from its config.json URL, so a broken manifest never blanks the page.
 */
export async function loadDeployment(
  manifestUrl: string,
  timeoutMs = 5000,
): Promise<DeploymentManifest | null> {
  try {
    const response = await fetch(manifestUrl, { cache: 'no-store', signal: AbortSignal.timeout(timeoutMs) });
    if (response.status === 404) return null;
    if (!response.ok) throw new Error(`answered ${response.status}`);
    return parseManifest(await response.json());
  } catch (error) {
    console.warn(`Deployment manifest ${manifestUrl} unusable, using config.json's remote URLs:`, error);
    return null;
  }
}
