/**
 * The rate a machine's clients proved before any refusal, kept between commands
 * (provider/platform-access/proven-rate-file.ts, the pace store's recall/remember/forget): what
 * cannot be trusted is not recalled — a file of another shape, one writable by others, a symbolic
 * link, a pace file that does not read beside it — so a later client climbs from the initial rate
 * as without the memory.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PROVEN_RATE_VALID_MS } from "../../../sdk";
import { MachinePaceStore } from "../../../provider/platform-access/pace-store";
import { readProven } from "../../../provider/platform-access/proven-rate-file";

let directory: string;
let now: number;
let store: MachinePaceStore;

beforeEach(() => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "proven-unit-"));
  process.env.DEVPLATFORM_PACE_DIR = path.join(root, "pace");
  directory = path.join(root, "pace", "app");
  now = 50_000_000;
  store = new MachinePaceStore(directory, () => now);
});

afterEach(() => {
  delete process.env.DEVPLATFORM_PACE_DIR;
});

const proven = () => path.join(directory, "proven.json");

describe("the proven rate kept in the pace directory", () => {
  it("is recalled as remembered, until PROVEN_RATE_VALID_MS has passed", () => {
    store.remember(200);
    expect(readProven(directory)).toEqual({ rate: 200, at: now });
    now += PROVEN_RATE_VALID_MS;
    expect(store.recall()).toBe(200);
    now += 1;
    expect(store.recall()).toBeUndefined();
  });

  it("dated after now (another boot's clock) is not recalled", () => {
    store.remember(200);
    now -= 1;
    expect(store.recall()).toBeUndefined();
  });

  it.each([
    ["not JSON", "{"],
    ["no time", JSON.stringify({ rate: 200 })],
    ["a rate of 0", JSON.stringify({ rate: 0, at: 50_000_000 })],
    ["a rate as text", JSON.stringify({ rate: "200", at: 50_000_000 })],
  ])("a file of another shape (%s) remembers nothing", (_, text) => {
    store.remember(200);
    fs.writeFileSync(proven(), text);
    expect(store.recall()).toBeUndefined();
  });

  it("a file writable by others, or a symbolic link, is refused (the pacer then recalls nothing)", () => {
    store.remember(200);
    fs.chmodSync(proven(), 0o666);
    expect(() => store.recall()).toThrow(/writable by others/);
    const elsewhere = path.join(path.dirname(directory), "elsewhere.json");
    fs.writeFileSync(elsewhere, JSON.stringify({ rate: 200, at: now }), { mode: 0o600 });
    fs.rmSync(proven());
    fs.symlinkSync(elsewhere, proven());
    expect(() => store.recall()).toThrow(/symbolic link/);
  });

  it("beside a pace file that does not read, nothing is recalled (it might hold a refusal)", () => {
    store.remember(200);
    fs.writeFileSync(path.join(directory, "state.json"), "{", { mode: 0o600 });
    expect(store.recall()).toBeUndefined();
  });

  it("forget removes it", () => {
    store.remember(200);
    store.forget();
    expect(fs.existsSync(proven())).toBe(false);
    expect(store.recall()).toBeUndefined();
  });
});
