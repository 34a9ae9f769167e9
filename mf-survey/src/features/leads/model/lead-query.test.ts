import { filterParams, leadQuerySearch, NO_FILTERS, pageCount, readLeadQuery } from './lead-query';

describe('the leads query in the address', () => {
  it('reads filters, page and lead, and drops what the API would refuse', () => {
    const query = readLeadQuery(
      new URLSearchParams(
        'consultation=yes&urgency=immediate&industry=mining&from=2026-01-01&to=1.1.26&page=3&lead=42',
      ),
    );
    expect(query).toEqual({
      filters: { ...NO_FILTERS, consultation: 'yes', urgency: 'immediate', from: '2026-01-01' },
      page: 3,
      lead: 42,
    });
    expect(readLeadQuery(new URLSearchParams('page=0&lead=x'))).toEqual({
      filters: NO_FILTERS,
      page: 1,
      lead: null,
    });
  });

  it('writes only what is set, so the plain screen is the plain path', () => {
    expect(leadQuerySearch({ filters: NO_FILTERS, page: 1, lead: null })).toBe('');
    const filters = { ...NO_FILTERS, contacted: 'no', companySize: '500+' } as const;
    expect(filterParams(filters)).toEqual({ contacted: 'no', companySize: '500+' });
    expect(leadQuerySearch({ filters, page: 2, lead: 7 })).toBe(
      '?contacted=no&companySize=500%2B&page=2&lead=7',
    );
    expect(readLeadQuery(new URLSearchParams(leadQuerySearch({ filters, page: 2, lead: 7 })))).toEqual({
      filters,
      page: 2,
      lead: 7,
    });
  });

  it('counts pages for 100,000 leads, and one page for none', () => {
    expect(pageCount(100_000, 25)).toBe(4000);
    expect(pageCount(100_001, 25)).toBe(4001);
    expect(pageCount(0, 25)).toBe(1);
  });
});
