/**
 * Where the browser keeps the session token (SPEC §3: localStorage 'token'). Written only by
 * @app/api-client's token store; read there, and by the shell's first script (rollout cohort, before the
 * shared modules load).
 */
export const TOKEN_KEY = 'token';

/**
 * localStorage: set (to an ISO time) when this browser completed the market assessment. mf-survey writes
 * it and announces it with a same-tab 'storage' event; the shell (thanks notice) and Home's premium cards
 * read it, so no app imports another.
 */
export const SURVEY_COMPLETED_KEY = 'market-assessment-completed';

/**
 * localStorage: this browser's login device token (issue 46), handed out by POST /api/login and sent with
 * every later login. An account's lockout does not apply to a browser that has logged in to it before, so a
 * stranger failing on purpose cannot lock its owner out (services/api-server/src/services/login-throttle.ts).
 */
export const LOGIN_DEVICE_KEY = 'login-device';
