import net from "node:net";

/**
 * A TCP proxy in front of a server that a test can break in two ways:
 * - `stop()` cuts: every connection is closed and new ones are refused, as if the server stopped;
 *   `stop({ reset: true })` resets them instead (the client reads ECONNRESET, as when a router
 *   between them restarts or a firewall rejects the flow);
 * - `partition()` swallows: connections stay open but no byte passes either way, and new
 *   connections are accepted but never reach the server, as when a network drops packets.
 *   `heal()` lets the held bytes through again (TCP would retransmit them) and connects the
 *   connections that arrived meanwhile.
 */
export async function startTcpProxy(targetHost: string, targetPort: number) {
  const sockets = new Set<net.Socket>();
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket | null; connect(): void }>();
  let server: net.Server | null = null;
  let port = 0;
  let partitioned = false;

  const link = (from: net.Socket, to: net.Socket) => {
    from.on("data", (chunk) => {
      if (!to.write(chunk)) from.pause();
    });
    to.on("drain", () => {
      if (!partitioned) from.resume();
    });
  };

  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
  };

  const listen = () =>
    new Promise<void>((resolve) => {
      server = net.createServer((client) => {
        track(client);
        if (partitioned) client.pause();
        const pair = {
          client,
          upstream: null as net.Socket | null,
          connect() {
            const upstream = net.connect(targetPort, targetHost);
            pair.upstream = upstream;
            track(upstream);
            link(client, upstream);
            link(upstream, client);
            client.on("close", () => upstream.destroy());
            upstream.on("close", () => client.destroy());
          },
        };
        pairs.add(pair);
        client.on("close", () => pairs.delete(pair));
        if (!partitioned) pair.connect();
      });
      server.listen(port, "127.0.0.1", () => {
        port = (server!.address() as net.AddressInfo).port;
        resolve();
      });
    });

  await listen();
  return {
    get port() {
      return port;
    },
    async stop({ reset = false }: { reset?: boolean } = {}) {
      for (const s of sockets) reset ? s.resetAndDestroy() : s.destroy();
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      server = null;
    },
    start: listen,
    partition() {
      partitioned = true;
      for (const s of sockets) s.pause();
    },
    heal() {
      partitioned = false;
      for (const pair of pairs) if (!pair.upstream) pair.connect();
      for (const s of sockets) s.resume();
    },
  };
}
