import { ClientLastUse, LAST_USE_PRECISION_MS } from './client-last-use.js';
import type { ClientsRepository } from './clients.repository.js';

const CLIENT_ID = 'plc_8Zq3v1Xw0bT4nYc2LmQa9d';

describe(ClientLastUse.name, () => {
  it('writes a client’s last use at most once a minute', async () => {
    const written: Array<[string, number]> = [];
    const sut = new ClientLastUse({
      markUsed: (clientId: string, now: Date) => {
        written.push([clientId, now.getTime()]);
        return Promise.resolve();
      },
    } as ClientsRepository);
    const start = Date.parse('2026-03-14T12:00:00Z');

    for (const offset of [0, 1, LAST_USE_PRECISION_MS - 1, LAST_USE_PRECISION_MS]) {
      await sut.record(CLIENT_ID, new Date(start + offset));
    }
    await sut.record('plc_another0another0anot', new Date(start + 1));

    expect(written).toEqual([
      [CLIENT_ID, start],
      [CLIENT_ID, start + LAST_USE_PRECISION_MS],
      ['plc_another0another0anot', start + 1],
    ]);
  });
});
