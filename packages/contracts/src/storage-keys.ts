/**
 * Where the browser keeps the session token (SPEC §3: localStorage 'token'). Written only by
 * @app/api-client's token store; read there, and by the shell's first script (rollout cohort, before the
 * shared modules load).
 */
export const TOKEN_KEY = 'token';
