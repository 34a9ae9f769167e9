/**
 * The origins the product's pages have on this machine by default (`pnpm start`, `pnpm dev`): the shell on
 * 3000 and each remote on 3001-3004, by name and by address. The default of CORS_ORIGINS for the API and for
 * the edge's files alike (issue 35: one name, one default); anything else sets CORS_ORIGINS.
 */
export const DEFAULT_CORS_ORIGINS: readonly string[] = [3000, 3001, 3002, 3003, 3004].flatMap((port) => [
  `http://localhost:${port}`,
  `http://127.0.0.1:${port}`,
]);
