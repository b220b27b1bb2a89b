// A round-robin TCP proxy on loopback (node:net): each client connection goes to the next backend;
// a backend that refuses the connection is skipped, so a killed replica costs only the connections
// that were open to it. Serves the gateways (HTTP/1.1 keep-alive) and the gRPC services (HTTP/2).
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface Proxy {
  port: number;
  address: string;
  /** Connections opened to each backend so far (by index). */
  connections: number[];
  close(): Promise<void>;
}

export async function startProxy(backends: number[], port = 0): Promise<Proxy> {
  let next = 0;
  const connections = backends.map(() => 0);
  const sockets = new Set<Socket>();
  const track = (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  };
  const server: Server = createServer({ pauseOnConnect: true }, (client) => {
    track(client);
    client.on('error', () => undefined);
    let tries = 0;
    const attempt = () => {
      if (client.destroyed) return;
      if (tries++ >= backends.length) {
        client.destroy();
        return;
      }
      const i = next++ % backends.length;
      const upstream = connect({ host: '127.0.0.1', port: backends[i]! });
      track(upstream);
      const onConnectError = () => {
        upstream.destroy();
        attempt();
      };
      upstream.once('error', onConnectError);
      upstream.once('connect', () => {
        upstream.off('error', onConnectError);
        connections[i]!++;
        upstream.on('error', () => client.destroy());
        client.on('error', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
        client.on('close', () => upstream.destroy());
        client.pipe(upstream);
        upstream.pipe(client);
        client.resume();
      });
    };
    attempt();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    port: actual,
    address: `127.0.0.1:${actual}`,
    connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
