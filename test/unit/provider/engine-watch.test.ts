/**
 * The provider process ends with its engine: when the engine's address refuses connections (under
 * Pulumi's own launcher the parent is `sh`, which outlives a killed CLI), or when re-parented.
 */
import * as net from "node:net";
import { describe, expect, it } from "vitest";
import { engineIsGone } from "../../../provider/deployment/engine-address";
import { exitWhenEngineGone } from "../../../provider/deployment/engine-watch";

async function listening(): Promise<{ address: string; close(): Promise<void> }> {
  const server = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe("exitWhenEngineGone", () => {
  it("stops the provider once its engine's address refuses connections, and not before", async () => {
    const engine = await listening();
    let gone = 0;
    const stop = exitWhenEngineGone({
      engineAddress: () => engine.address,
      parentId: () => 4242, // the launcher's `sh`: alive throughout
      onGone: () => (gone += 1),
      everyMs: 5,
    });
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(gone).toBe(0);
    await engine.close();
    await expect.poll(() => gone).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(gone).toBe(1);
    stop();
  });

  it("stops the provider once it is re-parented (whoever started it is gone)", async () => {
    let parent = 4242;
    let gone = 0;
    const stop = exitWhenEngineGone({
      engineAddress: () => undefined,
      parentId: () => parent,
      onGone: () => (gone += 1),
      everyMs: 5,
    });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(gone).toBe(0);
    parent = 1;
    await expect.poll(() => gone).toBe(1);
    stop();
  });
});

describe("engineIsGone", () => {
  it("is true only on proof: a refused connection; an engine that answers is not gone", async () => {
    const engine = await listening();
    expect(await engineIsGone(engine.address)).toBe(false);
    await engine.close();
    expect(await engineIsGone(engine.address)).toBe(true);
    expect(await engineIsGone("not an address")).toBe(false);
  });
});
