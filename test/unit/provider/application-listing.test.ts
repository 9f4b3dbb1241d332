/**
 * The application listing a fleet relies on: sorted by deviceId, paged by the size the platform
 * answered with, ended by the platform's own word (a short or empty page, or `total` reached).
 * The platform is scripted with undici's MockAgent (the SDK's fake platform).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listAllDevices } from "../../../provider/device-fleet/application-listing";
import { isLastPage, pageSizeOf } from "../../../provider/shared/pages";
import { FakePlatform, ok } from "../sdk/support/fake-platform";

let platform: FakePlatform;
let platforms = 0;

beforeEach(() => {
  // An origin of its own per test: the process-wide token cache is keyed by the base URL.
  platforms += 1;
  platform = new FakePlatform(`https://platform-${platforms}.test`);
});
afterEach(() => platform.close());

function device(i: number) {
  return { deviceId: String(1000 + i), sn: `24000000000${String(i).padStart(5, "0")}`, name: `d${i}` };
}

/** A platform of `count()` devices that cuts pages at `cut` records and answers `answered` as pageSize. */
function serve(count: () => number, cut: number, answered = cut): void {
  platform.on("POST /device/openapi/v1/devices/search", (request) => {
    const { pageNumber } = JSON.parse(request.body) as { pageNumber: number };
    const all = Array.from({ length: count() }, (_, i) => device(i));
    const content = all.slice((pageNumber - 1) * cut, pageNumber * cut);
    return ok({ pageSize: answered, pageNumber, total: all.length, content });
  });
}

function bodies(): { pageNumber: number; pageSize: number; sorts: unknown }[] {
  return platform.requests.filter((r) => r.path.endsWith("/devices/search")).map((r) => JSON.parse(r.body));
}

describe("the application listing", () => {
  it("asks for 100 a page sorted by deviceId ascending: ⌈250/100⌉ = 3 searches", async () => {
    serve(() => 250, 100);
    const devices = await listAllDevices(platform.client(), 4);
    expect(new Set(devices.map((d) => d.deviceId)).size).toBe(250);
    expect(
      bodies()
        .map((b) => b.pageNumber)
        .sort(),
    ).toEqual([1, 2, 3]);
    for (const body of bodies()) {
      expect(body).toMatchObject({ pageSize: 100, sorts: [{ property: "deviceId", direction: "asc" }] });
    }
  });

  it("pages by the size the platform answered with (7), not the 100 asked", async () => {
    serve(() => 20, 7);
    const devices = await listAllDevices(platform.client(), 4);
    expect(devices).toHaveLength(20);
    expect(bodies()).toHaveLength(3);
  });

  it("goes on past the pages page 1 announced while the last one is full and total says more", async () => {
    let count = 14;
    serve(() => count, 7);
    const client = platform.client();
    const first = await client.searchDevices({ pageNumber: 1, pageSize: 100 });
    count = 30; // another writer added 16 devices after page 1
    const devices = await listAllDevices(client, 4, first);
    expect(devices).toHaveLength(30);
    expect(bodies().map((b) => b.pageNumber)).toEqual([1, 2, 3, 4, 5]);
  });

  it("a platform that echoes pageSize 100 but cuts at 7 ends the listing at its short page 1", async () => {
    serve(() => 20, 7, 100);
    expect(await listAllDevices(platform.client(), 4)).toHaveLength(7);
    expect(bodies()).toHaveLength(1);
  });
});

describe("pageSizeOf and isLastPage", () => {
  const page = (pageSize: number, total: number, length: number) => ({
    pageSize,
    pageNumber: 1,
    total,
    content: Array.from({ length }, (_, i) => device(i)),
  });

  it("takes the answered size when it is one the platform could have used, else what it returned", () => {
    expect(pageSizeOf(page(7, 20, 7))).toBe(7);
    expect(pageSizeOf(page(100, 20, 20))).toBe(100);
    expect(pageSizeOf(page(0, 20, 7))).toBe(7);
    expect(pageSizeOf(page(500, 20, 20))).toBe(20);
    expect(pageSizeOf(page(0, 0, 0))).toBe(1);
  });

  it("ends on a short page, an empty one, or when the pages reached total", () => {
    expect(isLastPage(page(7, 20, 7), 1, 7)).toBe(false);
    expect(isLastPage(page(7, 20, 6), 3, 7)).toBe(true);
    expect(isLastPage(page(7, 21, 7), 3, 7)).toBe(true);
    expect(isLastPage(page(7, 21, 0), 4, 7)).toBe(true);
  });
});
