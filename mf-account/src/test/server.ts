import { setupServer } from 'msw/node';

/** The API base address the component tests use; msw answers every call at the HTTP layer. */
export const API = 'http://api.test';
export const server = setupServer();
