import { paginationLinks } from './pagination-links.js';

describe(paginationLinks.name, () => {
  const query = new URLSearchParams('status=OPEN&page=2&pageSize=10');

  it('links first, prev, next and last, keeping the other parameters', () => {
    expect(paginationLinks('/api/processes', query, 2, 3)).toBe(
      [
        '</api/processes?status=OPEN&page=1&pageSize=10>; rel="first"',
        '</api/processes?status=OPEN&page=1&pageSize=10>; rel="prev"',
        '</api/processes?status=OPEN&page=3&pageSize=10>; rel="next"',
        '</api/processes?status=OPEN&page=3&pageSize=10>; rel="last"',
      ].join(', '),
    );
  });

  it('has no prev on the first page and no next on the last', () => {
    const first = paginationLinks('/api/processes', new URLSearchParams(), 1, 1);
    expect(first).toBe('</api/processes?page=1>; rel="first", </api/processes?page=1>; rel="last"');
  });

  it('points prev at the last page from past the end', () => {
    expect(paginationLinks('/api/processes', new URLSearchParams('page=9'), 9, 3)).toContain(
      '</api/processes?page=3>; rel="prev"',
    );
  });

  it('treats an empty result as one page', () => {
    expect(paginationLinks('/api/processes', new URLSearchParams(), 1, 0)).not.toContain('rel="next"');
  });
});
