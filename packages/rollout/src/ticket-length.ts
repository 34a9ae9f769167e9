/**
 * The longest health ticket anyone accepts (the page's plan, the report's schema, the API's check): a
 * ticket naming all four remotes with two 80-character version ids each, a 32-character environment and
 * every remote's render failure is about 1,300 characters; one with four remotes and short ids about 500.
 * A module of its own: the contracts every visitor's bundle carries import it, and nothing of the plan's
 * schemas comes with it.
 */
export const MAX_TICKET_LENGTH = 2048;
