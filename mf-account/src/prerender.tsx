// Login and Register look the same to every guest: pre-rendered at build time into dist/prerender.json
// (tooling/webpack/prerender.mjs), so the form is on screen before any script runs. The shell's page keeps
// it inert until the live form replaces it, so nothing typed into it can be lost.
import App from './app';

// Forgot and Reset password are behind lazy() (app.tsx): they would pre-render as their loading line.
export const prerenderPaths = ['/login', '/register'];

export function Prerender(_props: { path: string }) {
  return <App />;
}
