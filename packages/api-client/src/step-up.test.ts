import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, configureApi } from './client';
import { ApiError } from './errors';
import { setStepUpHandler } from './step-up';

const BASE = 'http://api.test';
const server = setupServer();
const STEP_UP = { error: 'Please confirm it is you', stepUpRequired: true };

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => configureApi({ baseUrl: BASE }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** An action the API refuses until `verified` (what the dialog's code does on the server). */
function sensitiveAction() {
  const state = { verified: false, calls: 0 };
  server.use(
    http.post(`${BASE}/api/admin/thing`, () => {
      state.calls += 1;
      return state.verified ? HttpResponse.json({ ok: true }) : HttpResponse.json(STEP_UP, { status: 403 });
    }),
  );
  return state;
}

describe('step-up (issue 46)', () => {
  it('asks the registered dialog once and sends the refused call again after it verified a code', async () => {
    const action = sensitiveAction();
    const dialog = vi.fn(async () => {
      action.verified = true;
      return true;
    });
    const remove = setStepUpHandler(dialog);
    try {
      await expect(api.post('/api/admin/thing', {}, null)).resolves.toEqual({ ok: true });
      expect(dialog).toHaveBeenCalledWith(STEP_UP.error);
      expect(action.calls).toBe(2);
    } finally {
      remove();
    }
  });

  it('gives the refusal to the screen when the dialog is cancelled, and asks again only once per call', async () => {
    const action = sensitiveAction();
    const dialog = vi.fn(async () => false);
    const remove = setStepUpHandler(dialog);
    try {
      const error = await api.post('/api/admin/thing', {}, null).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).body?.stepUpRequired).toBe(true);
      expect(action.calls).toBe(1);
    } finally {
      remove();
    }
  });

  it('opens one dialog for calls refused at the same time', async () => {
    const action = sensitiveAction();
    let answer: (ok: boolean) => void = () => {};
    const dialog = vi.fn(
      () =>
        new Promise<boolean>((resolve) => {
          answer = resolve;
        }),
    );
    const remove = setStepUpHandler(dialog);
    try {
      const both = Promise.all([
        api.post('/api/admin/thing', {}, null),
        api.post('/api/admin/thing', {}, null),
      ]);
      await vi.waitFor(() => expect(action.calls).toBe(2));
      action.verified = true;
      answer(true);
      await expect(both).resolves.toEqual([{ ok: true }, { ok: true }]);
      expect(dialog).toHaveBeenCalledTimes(1);
    } finally {
      remove();
    }
  });

  it('leaves a 403 without the flag, or with no dialog registered, to the screen', async () => {
    sensitiveAction();
    await expect(api.post('/api/admin/thing', {}, null)).rejects.toBeInstanceOf(ApiError);
    server.use(
      http.get(`${BASE}/api/admin/other`, () => HttpResponse.json({ error: 'No' }, { status: 403 })),
    );
    const dialog = vi.fn(async () => true);
    const remove = setStepUpHandler(dialog);
    try {
      await expect(api.get('/api/admin/other', null)).rejects.toBeInstanceOf(ApiError);
      expect(dialog).not.toHaveBeenCalled();
    } finally {
      remove();
    }
  });
});
