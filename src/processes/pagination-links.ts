/**
 * The RFC 8288 `Link` header of a list page: `first`, `last`, and `prev`/`next` where they exist,
 * each the same request with only `page` changed.
 */
export function paginationLinks(
  path: string,
  query: URLSearchParams,
  page: number,
  totalPages: number,
): string {
  const lastPage = Math.max(totalPages, 1);
  const link = (target: number, rel: string) => {
    const params = new URLSearchParams(query);
    params.set('page', String(target));
    return `<${path}?${params.toString()}>; rel="${rel}"`;
  };
  return [
    link(1, 'first'),
    ...(page > 1 ? [link(Math.min(page - 1, lastPage), 'prev')] : []),
    ...(page < lastPage ? [link(page + 1, 'next')] : []),
    link(lastPage, 'last'),
  ].join(', ');
}
