import { buildEdge } from '../build.mjs';

/** The compiled render worker the sandbox starts (vitest.config.ts says why). */
export default async function setup() {
  await buildEdge();
}
