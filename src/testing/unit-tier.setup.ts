import net from 'node:net';

/**
 * Unit specs run with no network, loopback included: a spec that opens a socket or a server is an
 * integration spec (`*.integration-spec.ts`), and this says so where it happens.
 */
const refuse = (what: string) => () => {
  throw new Error(`A unit spec ${what}: name it *.integration-spec.ts (unit specs use no network)`);
};
net.Socket.prototype.connect = refuse('opened a connection');
net.Server.prototype.listen = refuse('started a server') as never;
