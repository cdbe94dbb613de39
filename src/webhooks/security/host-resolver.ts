import { lookup } from 'node:dns/promises';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to its addresses, as the system resolver does for outgoing connections. */
export abstract class HostResolver {
  abstract resolve(host: string): Promise<ResolvedAddress[]>;
}

export class SystemHostResolver extends HostResolver {
  async resolve(host: string): Promise<ResolvedAddress[]> {
    const addresses = await lookup(host, { all: true, verbatim: true });
    return addresses.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
  }
}
