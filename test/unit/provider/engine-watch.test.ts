import { describe, expect, it } from "vitest";
import { exitWhenEngineGone } from "../../../provider/runtime/engine-watch";

describe("exitWhenEngineGone", () => {
  it("stops the provider once its parent process (the engine) is gone, and not before", async () => {
    let parent = 4242;
    let gone = 0;
    const stop = exitWhenEngineGone({ parentId: () => parent, onGone: () => (gone += 1), everyMs: 5 });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(gone).toBe(0);
    parent = 1; // re-parented: the CLI died
    await expect.poll(() => gone).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(gone).toBe(1);
    stop();
  });
});
