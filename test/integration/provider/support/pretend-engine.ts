/**
 * Pretend engines for tests of the one-owner record: a deployment is its engine's address, and a
 * directory whose engine refuses connections is swept as over, so a live deployment needs an
 * address that listens.
 */
import * as net from "node:net";
import { afterAll } from "vitest";
import type { Deployment } from "../../../../provider/deployment/shared-record";

const engines: net.Server[] = [];

afterAll(async () => {
  for (const engine of engines.splice(0)) await new Promise((resolve) => engine.close(resolve));
});

/** A deployment of a pretend engine: a fresh loopback address that listens until the file ends. */
export async function newDeployment(): Promise<Deployment> {
  const engine = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => engine.listen(0, "127.0.0.1", resolve));
  engines.push(engine);
  return { engineAddress: `127.0.0.1:${(engine.address() as net.AddressInfo).port}` };
}
