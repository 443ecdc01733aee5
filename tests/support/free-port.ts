import { type AddressInfo, createServer } from "node:net";

/** A port nobody listens on right now on 127.0.0.1 (the system's pick), for a server a test or the bench starts. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
