// Which request paths the edge may answer at all. Everything it serves is a plain file name under its build
// folder: no dotfiles, nothing outside the folder (also when encoded), and source maps only when the team
// asks for them (SERVE_SOURCE_MAPS=1); the maps stay beside the build either way.

/** The decoded path, or null when the path cannot be decoded (a malformed %-escape). */
export function decodedPath(pathname: string): string | null {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return null;
  }
}

/**
 * True when the path must be answered 404 without looking at the disk: traversal (`..` as a segment, also
 * %2e%2e or %2f-encoded), backslashes and NUL bytes, dotfiles and dot-folders (.env, .git/), and source maps
 * unless `serveSourceMaps`.
 */
export function isForbiddenPath(pathname: string, { serveSourceMaps = false } = {}): boolean {
  const decoded = decodedPath(pathname);
  if (decoded === null) return true;
  // Decoded twice as well: a double-encoded %252e%252e must not become '..' in a later layer either.
  const twice = decodedPath(decoded) ?? decoded;
  for (const path of [decoded, twice]) {
    if (/[\\\0]/.test(path)) return true;
    const segments = path.split('/');
    if (segments.some((segment) => segment === '..' || segment.startsWith('.'))) return true;
  }
  if (!serveSourceMaps && /\.map$/i.test(decoded)) return true;
  return false;
}
