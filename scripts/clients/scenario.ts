/**
 * What every generated client must be able to do against a running service, written once; each
 * program beside this file adapts one generator's client to {@link ClientUnderTest}.
 */
export interface ListPage {
  numeros: string[];
  totalItems: number;
  /** The `next` URL of the `Link` header, when there is one. */
  next: string | undefined;
}

export interface ClientUnderTest {
  login(username: string, password: string): Promise<string>;
  /** `GET /api/processes` with several statuses (sent as the generator serialises arrays). */
  listByStatus(token: string, statuses: string[], pageSize: number, page: number): Promise<ListPage>;
  /** `GET /api/processes/{numero}`: the status, the ETag and, for a problem, its `type`. */
  getProcess(
    token: string,
    numero: string,
    ifNoneMatch?: string,
  ): Promise<{ status: number; etag: string | null; problemType?: string }>;
}

export function nextLink(link: string | null): string | undefined {
  for (const part of (link ?? '').split(',')) {
    const match = /<([^>]*)>\s*;\s*rel="?next"?/.exec(part.trim());
    if (match !== null) return match[1];
  }
  return undefined;
}

function check(condition: boolean, what: string): asserts condition {
  if (!condition) throw new Error(`${what}: failed`);
}

export async function runScenario(name: string, client: ClientUnderTest): Promise<void> {
  const token = await client.login('acme', 'acme-demo-2026');
  check(token.length > 0, 'login gives a token');

  const statuses = ['IN_TRANSIT', 'ARRIVED'];
  const first = await client.listByStatus(token, statuses, 2, 1);
  check(first.totalItems > 2 && first.numeros.length === 2, 'a multi-value filter finds several pages');
  check(first.next !== undefined, 'the first page links to the next');
  const page = Number(new URL(first.next, 'http://x').searchParams.get('page'));
  check(page === 2, 'Link next is page 2');
  const second = await client.listByStatus(token, statuses, 2, page);
  check(
    second.numeros.length > 0 && second.numeros.every((numero) => !first.numeros.includes(numero)),
    'the next page holds other processes',
  );

  const numero = first.numeros[0]!;
  const detail = await client.getProcess(token, numero);
  check(detail.status === 200 && detail.etag !== null, 'the detail answers with an ETag');
  const revalidated = await client.getProcess(token, numero, detail.etag);
  check(revalidated.status === 304, 'If-None-Match revalidates to 304');

  const missing = await client.getProcess(token, 'IMP-0000-000000');
  check(
    missing.status === 404 && missing.problemType === '/problems/not-found',
    'an unknown process is a 404 problem',
  );
  console.log(`${name}: login, multi-value filter, Link next, detail, 304 and 404 as documented`);
}
