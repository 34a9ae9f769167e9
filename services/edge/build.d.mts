// Types of build.mjs (plain JavaScript, run by node and imported by the scripts and the edge's tests).
export const EDGE_BUNDLE: string;
export const FILES_BUNDLE: string;
export const RENDER_WORKER_BUNDLE: string;
export function buildEdge(): Promise<string>;
