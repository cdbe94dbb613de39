import net from 'node:net';

/**
 * Unit specs run with no network, loopback included: a spec that opens a socket or a server is an
 * integration spec (`*.integration-spec.ts`), and this says so where it happens. Node's modules are
 * shared by every file a Jest worker runs, of every tier, so the originals come back after each file.
 */
const refuse = (what: string) => () => {
  throw new Error(`A unit spec ${what}: name it *.integration-spec.ts (unit specs use no network)`);
};
const { connect } = net.Socket.prototype;
const { listen } = net.Server.prototype;
net.Socket.prototype.connect = refuse('opened a connection');
net.Server.prototype.listen = refuse('started a server') as never;
afterAll(() => {
  net.Socket.prototype.connect = connect;
  net.Server.prototype.listen = listen;
});
