import fs from 'node:fs';
import { withApiBaseUrl } from './deployment-state';

/**
 * /config.json as served: the file as written, or with the browser's API address replaced (API_BASE_URL)
 * so a shell that fetches it meets the same API as a page the edge composed. A file that does not parse is
 * served as it is: the shell then shows its config error, as it would without the override.
 */
export function configFileText(file: string, apiBaseUrl: string | undefined): string | Buffer {
  const bytes = fs.readFileSync(file);
  if (!apiBaseUrl) return bytes;
  try {
    return JSON.stringify(withApiBaseUrl(JSON.parse(bytes.toString('utf8')), apiBaseUrl), null, 2);
  } catch {
    return bytes;
  }
}
