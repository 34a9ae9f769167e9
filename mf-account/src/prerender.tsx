// Login, Register and Forgot password look the same to every guest: pre-rendered at build time into dist/prerender.json
// (tooling/webpack/prerender.mjs), so the form is on screen before any script runs. The shell's page keeps
// it inert until the live form replaces it, so nothing typed into it can be lost.
import App from './app';

// Reset password is not: its form depends on the link's token, so it renders live.
export const prerenderPaths = ['/login', '/register', '/forgot-password'];

export function Prerender(_props: { path: string }) {
  return <App />;
}
