import { prerenderPaths, serverRequests } from './prerender';

describe('prerender', () => {
  // Issue 34: /admin/company is an administrator's page; neither the build nor the edge may picture it.
  it('leaves /admin/company out of the build-time and the per-request pictures', () => {
    expect(prerenderPaths).not.toContain('/admin/company');
    expect(serverRequests('/admin/company')).toBeNull();
  });
});
