/** The remotes' container names: the route table names its owners with them, the contract its loads. */
export const REMOTE_NAMES = ['mf_account', 'mf_research', 'mf_survey', 'mf_public_pages'] as const;
export type RemoteName = (typeof REMOTE_NAMES)[number];
