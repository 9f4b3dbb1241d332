/**
 * One pace for the provider processes of one machine (pace-store.ts), with processes played by
 * stores of one directory: each change is made on the one state under the lock (a lock held by
 * another waits, at most 200 ms, then the change fails and the pacer goes on alone); a lock older
 * than 1 s is broken; a pace nobody changed for 5 s starts again; another application's pace is
 * another file; a pace an older provider wrote is read; a directory or file that is not this user's alone is not used; the status line
 * while the pace waits (pace-progress.ts) says why and how fast.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { AdaptivePacer } from "../../../sdk";
import { paceLine } from "../../../provider/platform-access/pace-progress";
import {
  IDLE_RESET_MS,
  LOCK_WAIT_MS,
  MachinePaceStore,
  machinePaceStore,
  STALE_LOCK_MS,
} from "../../../provider/platform-access/pace-store";

let clock = 0;
let root: string;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "pace-unit-"));
  process.env.DEVPLATFORM_PACE_DIR = path.join(root, "pace");
  clock = 1_800_000_000_000;
});

const store = (clientId = "client") => {
  const made = machinePaceStore(clientId);
  return new MachinePaceStore(made.directory, () => clock);
};

describe("the pace of one application on one machine", () => {
  it("makes nothing under a shared root that is a symbolic link: it is refused before the pace's root is made", () => {
    const target = path.join(root, "elsewhere");
    fs.mkdirSync(target, { mode: 0o700 });
    const planted = path.join(root, "owners");
    fs.symlinkSync(target, planted);
    const saved = { ...process.env };
    delete process.env.DEVPLATFORM_PACE_DIR;
    process.env.DEVPLATFORM_OWNERSHIP_DIR = planted;
    try {
      expect(() => machinePaceStore("client").peek()).toThrow(/is a symbolic link/);
      expect(fs.readdirSync(target)).toEqual([]);
    } finally {
      process.env.DEVPLATFORM_PACE_DIR = saved.DEVPLATFORM_PACE_DIR;
      if (saved.DEVPLATFORM_OWNERSHIP_DIR === undefined) delete process.env.DEVPLATFORM_OWNERSHIP_DIR;
      else process.env.DEVPLATFORM_OWNERSHIP_DIR = saved.DEVPLATFORM_OWNERSHIP_DIR;
    }
  });

  it("is one state for every process: what one changes, the next change of another starts from", () => {
    expect([LOCK_WAIT_MS, STALE_LOCK_MS, IDLE_RESET_MS]).toEqual([200, 1_000, 5_000]);
    const [one, other] = [store(), store()];
    one.transact((state) => {
      state.rate = 12;
      state.issued = 40;
    });
    expect(other.transact((state) => [state.rate, state.issued])).toEqual([12, 40]);
    // Another application keeps a pace of its own.
    expect(store("another-client").transact((state) => state.rate)).toBe(2);
    expect(fs.statSync(one.directory).mode & 0o777).toBe(0o700);
  });

  it("forgets the requests in flight of a process killed before they ended (SIGKILL: no release ran)", async () => {
    // On the real clocks: the holder process writes the pace on the machine's clock, not the fake one.
    const real = () => new MachinePaceStore(machinePaceStore("client").directory);
    real().transact((state) => void (state.inFlight += 1)); // this process's own request, still in flight
    const child = spawn(
      process.execPath,
      ["--import", "tsx", path.join(__dirname, "support", "pace-holder.ts")],
      {
        env: { ...process.env, PACE_HOLDER_COUNT: "3", PACE_HOLDER_CLIENT: "client" },
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on("data", (chunk: Buffer) => chunk.toString().includes("held") && resolve());
        child.once("exit", (code) => reject(new Error(`the holder exited ${String(code)}`)));
      });
      expect(real().peek().inFlight).toBe(4);
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGKILL");
      await exited;
      // Read, and changed by the next start of another process: the dead holder's 3 are gone, ours stays.
      expect(real().peek().inFlight).toBe(1);
      expect(real().transact((state) => state.inFlight)).toBe(1);
      real().transact((state) => void (state.inFlight -= 1));
      expect(real().peek().inFlight).toBe(0);
    } finally {
      child.kill("SIGKILL");
    }
  });

  it("starts again from a stored pace whose rate is not above 0 or whose pass times are not numbers", () => {
    const one = store();
    one.transact((state) => {
      state.rate = 9;
      state.passedAt = [clock];
    });
    const file = path.join(one.directory, "state.json");
    const written = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>;
    for (const [key, value] of [
      ["rate", 0],
      ["rate", -3],
      ["passedAt", [clock, null]],
      ["passedAt", ["soon"]],
    ] as const) {
      fs.writeFileSync(file, JSON.stringify({ ...written, [key]: value }), { mode: 0o600 });
      const seen = store().peek();
      expect([key, seen.rate, seen.passedAt]).toEqual([key, 2, []]);
    }
  });

  it("is read without its lock and without a change (a look for a turn not yet due)", () => {
    const one = store();
    one.transact((state) => void (state.rate = 7));
    const written = fs.statSync(path.join(one.directory, "state.json")).mtimeMs;
    fs.mkdirSync(path.join(one.directory, "lock")); // another process is changing it
    clock += 1_000;
    expect(store().peek().rate).toBe(7);
    expect(fs.statSync(path.join(one.directory, "state.json")).mtimeMs).toBe(written);
    clock += IDLE_RESET_MS;
    expect(store().peek().rate).toBe(2); // nobody changed it for 5 s: a new pace
  });

  it("makes a change wait for a lock another process holds, and fails it after 200 ms", () => {
    const one = store();
    one.transact(() => undefined);
    fs.mkdirSync(path.join(one.directory, "lock"));
    const started = Date.now();
    const real = new MachinePaceStore(one.directory);
    expect(() => real.transact(() => undefined)).toThrow(/is held too long/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(LOCK_WAIT_MS);
  });

  it("breaks a lock older than 1 s: its process died holding it", () => {
    const one = store();
    one.transact((state) => void (state.rate = 7));
    const lock = path.join(one.directory, "lock");
    fs.mkdirSync(lock);
    const old = new Date(Date.now() - STALE_LOCK_MS - 500);
    fs.utimesSync(lock, old, old);
    const real = new MachinePaceStore(one.directory, () => clock);
    expect(real.transact((state) => state.rate)).toBe(7);
    expect(fs.existsSync(lock)).toBe(false);
  });

  it("breaks a lock dated in the future too (the wall clock stepped back since it was made)", () => {
    const one = new MachinePaceStore(store().directory); // the real clocks
    one.transact((state) => void (state.rate = 7));
    const lock = path.join(one.directory, "lock");
    fs.mkdirSync(lock);
    const future = new Date(Date.now() + 3_600_000);
    fs.utimesSync(lock, future, future);
    expect(one.transact((state) => state.rate)).toBe(7);
    expect(fs.existsSync(lock)).toBe(false);
  });

  it("keeps a pause that outlives the idle reset: nobody changes the pace while everyone sleeps", () => {
    const one = store();
    one.transact((state) => {
      Object.assign(state, { rate: 27, slowStart: false, pausedUntil: clock + 20_000 });
    });
    clock += IDLE_RESET_MS + 1_000;
    expect(one.transact((state) => [state.rate, state.pausedUntil])).toEqual([27, clock + 14_000]);
    clock += 14_000 + IDLE_RESET_MS + 1;
    expect(one.transact((state) => state.rate)).toBe(2);
  });

  it("starts again from a pace dated after now: written on another clock (a wall clock, before a boot)", () => {
    const one = store();
    one.transact((state) => Object.assign(state, { rate: 9, slowStart: false, pausedUntil: clock + 60_000 }));
    clock -= 3_600_000;
    expect(one.transact((state) => [state.rate, state.pausedUntil])).toEqual([2, 0]);
  });

  it("tells a process not yet pacing of a change with one stat, and reads the file only when it changed", () => {
    const one = store();
    const other = store();
    expect(other.changed()).toBeUndefined(); // no pace yet
    one.transact((state) => Object.assign(state, { rate: 9, slowStart: false }));
    const file = path.join(one.directory, "state.json");
    const second = Math.floor(Date.now() / 1000); // a time a file keeps exactly
    fs.utimesSync(file, second, second);
    expect(other.changed()?.rate).toBe(9);
    // Unchanged to a stat (same inode, size and time), a file is not read: a change in place that
    // keeps all three goes unseen, which no writer of the pace makes (each write is a rename).
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace('"rate":9', '"rate":7'));
    fs.utimesSync(file, second, second);
    expect(other.changed()).toBeUndefined();
    clock += 10;
    one.transact((state) => void (state.rate = 8));
    expect(other.changed()?.rate).toBe(8);
  });

  it("starts again as a new client's after 5 s unchanged, or when its file does not read", () => {
    const one = store();
    one.transact((state) => {
      state.rate = 9;
      state.slowStart = false;
    });
    clock += IDLE_RESET_MS - 1;
    expect(one.transact((state) => state.rate)).toBe(9);
    clock += IDLE_RESET_MS + 1;
    expect(one.transact((state) => [state.rate, state.slowStart])).toEqual([2, true]);
    fs.writeFileSync(path.join(one.directory, "state.json"), '{"rate": "fast"}');
    expect(one.transact((state) => state.rate)).toBe(2);
  });

  it("keeps the count of an episode's refused window, and reads a pace an older provider wrote without one as nothing to settle", () => {
    const one = store();
    one.transact((state) => {
      state.plateau = 12;
      state.refusedWindowPassed = 10;
    });
    expect(store().transact((state) => state.refusedWindowPassed)).toBe(10);
    const file = path.join(one.directory, "state.json");
    const { refusedWindowPassed, ...older } = JSON.parse(fs.readFileSync(file, "utf8")) as Record<
      string,
      unknown
    >;
    expect(refusedWindowPassed).toBe(10);
    fs.writeFileSync(file, JSON.stringify(older));
    expect(store().transact((state) => [state.plateau, state.refusedWindowPassed])).toEqual([12, 12]);
  });

  it("is not used when its file is writable by others: the pacer goes on alone", async () => {
    const one = store();
    one.transact(() => undefined);
    fs.chmodSync(path.join(one.directory, "state.json"), 0o666);
    expect(() => store().transact(() => undefined)).toThrow(/writable by others/);
    const pacer = new AdaptivePacer({ store: store() });
    await pacer.acquire();
    expect(pacer.currentRate()).toBe(2);
  });
});

describe("the line while the pace waits", () => {
  it("says why, how long and how fast", () => {
    expect(paceLine({ rate: 4.2, pausedUntil: 2_000, refusals: 3, cause: "refused" }, 1_000)).toBe(
      "the platform refused 3 requests for its rate limit: pausing 1.0 s, then sending 4.2 requests a second, more while they pass",
    );
    expect(paceLine({ rate: 14.4, pausedUntil: 0, refusals: 0, cause: "shared" }, 1_000)).toBe(
      "another provider process on this machine met the platform's rate limit: sending 14 requests a second, more while they pass",
    );
  });
});
