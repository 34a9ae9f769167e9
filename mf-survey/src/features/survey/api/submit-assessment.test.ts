import { API_PATHS } from '@app/contracts';
import { API, useApiServer } from '@app/test-utils';
import { HttpResponse, http } from 'msw';
import { COMPLETE_VALUES } from '../../../test/fixtures';
import { toPayload } from '../model/survey-values';
import { submitAssessment } from './submit-assessment';

const server = useApiServer();
const url = `${API}${API_PATHS.marketAssessment}`;

describe('submitAssessment', () => {
  it('posts the payload with the Idempotency-Key and reports it stored on 201', async () => {
    let seen: { key: string | null; body: unknown } | null = null;
    server.use(
      http.post(url, async ({ request }) => {
        seen = { key: request.headers.get('Idempotency-Key'), body: await request.json() };
        return HttpResponse.json({ id: 7, message: 'Thanks' }, { status: 201 });
      }),
    );
    const payload = toPayload(COMPLETE_VALUES);
    await expect(submitAssessment(payload, 'key-1')).resolves.toBe('stored');
    expect(seen).toEqual({ key: 'key-1', body: payload });
  });

  it('counts a missing endpoint (404) as success, as SPEC §7 says', async () => {
    server.use(http.post(url, () => HttpResponse.json({ error: 'Not found' }, { status: 404 })));
    await expect(submitAssessment(toPayload(COMPLETE_VALUES), 'key-2')).resolves.toBe('absent');
  });

  it('throws on any other failure', async () => {
    server.use(http.post(url, () => HttpResponse.json({ error: 'boom' }, { status: 500 })));
    await expect(submitAssessment(toPayload(COMPLETE_VALUES), 'key-3')).rejects.toMatchObject({
      status: 500,
    });
    server.use(http.post(url, () => HttpResponse.error()));
    await expect(submitAssessment(toPayload(COMPLETE_VALUES), 'key-3')).rejects.toMatchObject({ status: 0 });
  });
});
