/**
 * The typed client example of examples/, run against the deployment as a portal would: with the
 * client generated from the document, over Node's fetch, as the suite's user.
 */
import { runExample } from '../../examples/portal-client.js';
import type { Problem } from './support/api-types.js';
import { RemoteApi, ROOM_WAIT_MS } from './support/remote-api.js';
import { remoteConfig } from './support/remote-config.js';

const api = await RemoteApi.connect();

describe('the generated client example (Node fetch)', () => {
  let token: string;

  beforeAll(async () => {
    token = await api.signInFor(10);
  }, ROOM_WAIT_MS);

  it('logs in, lists with a multi-value filter, follows Link to the next page and reads a problem', async () => {
    const outcome = await runExample(api.baseUrl, remoteConfig.user);

    const pages = [...outcome.firstPage, ...outcome.nextPage];
    expect(outcome.firstPage).toHaveLength(Math.min(2, outcome.totalItems));
    expect(outcome.nextPage).toHaveLength(Math.min(2, Math.max(0, outcome.totalItems - 2)));
    // Sorted by numero: the next page goes on where the first stopped.
    expect(pages).toEqual([...pages].sort());
    expect(new Set(pages).size).toBe(pages.length);
    expect(outcome.problem).toEqual({ type: '/problems/not-found', title: 'Not found', status: 404 });
  });

  it('words refusals for a person, and they conform to the document', async () => {
    const refused = await api.get<Problem>('/api/processes?foo=1&status=IN_TRANSIT,LOST', { token });

    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual(
      expect.arrayContaining([
        { in: 'query', name: 'foo', message: 'unknown parameter' },
        {
          in: 'query',
          name: 'status',
          message: expect.stringMatching(/^must be one of OPEN, BOOKED, IN_TRANSIT, .*CANCELLED/),
        },
      ]),
    );
  });
});
