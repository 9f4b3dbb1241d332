/**
 * One pace for the provider processes of a deployment (pace-share.ts), with processes played by
 * shares of different pids in one directory: a decrease one publishes is read by the others once,
 * at most every 250 ms (the documented interval); another application's or another deployment's
 * file slows nothing; a file that is not this user's alone is ignored; the status line while the
 * pace waits (pace-progress.ts) says why and how fast, at most once a second.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { DeploymentPaceShare, PACE_READ_INTERVAL_MS } from "../../../provider/runtime/pace-share";
import { paceLine } from "../../../provider/runtime/pace-progress";
import { deploymentDirectory, type Deployment } from "../../../provider/runtime/shared-record";

const BASE_URL = "https://platform.example.com";
const deployment: Deployment = { engineAddress: "127.0.0.1:45681" };
const signal = { at: 1_000, pausedUntil: 2_000, rate: 3.5 };
let clock = 0;

beforeEach(() => {
  process.env.DEVPLATFORM_OWNERSHIP_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "pace-unit-"));
  clock = 10_000;
});

const share = (pid: number, of: Deployment = deployment, clientId = "client") =>
  new DeploymentPaceShare(of, BASE_URL, clientId, () => clock, pid);

describe("the pace shared by a deployment's processes", () => {
  it("reads another process's decrease once, and at most every 250 ms", async () => {
    expect(PACE_READ_INTERVAL_MS).toBe(250);
    const one = share(101);
    const other = share(102);
    expect(await other.othersRefusals()).toEqual([]);
    one.refused(signal);
    clock += PACE_READ_INTERVAL_MS - 1;
    expect(await other.othersRefusals()).toEqual([]);
    clock += 1;
    expect(await other.othersRefusals()).toEqual([signal]);
    clock += PACE_READ_INTERVAL_MS;
    expect(await other.othersRefusals()).toEqual([]);
    one.refused({ ...signal, at: 1_500, rate: 2 });
    clock += PACE_READ_INTERVAL_MS;
    expect(await other.othersRefusals()).toEqual([{ ...signal, at: 1_500, rate: 2 }]);
    // Its own decrease is not news to a process.
    expect(await one.othersRefusals()).toEqual([]);
  });

  it("takes nothing from another application or another deployment", async () => {
    share(201, deployment, "another-client").refused(signal);
    share(202, { engineAddress: "127.0.0.1:45682" }).refused(signal);
    expect(await share(203).othersRefusals()).toEqual([]);
  });

  it("ignores a file writable by others, and removes its own at exit", async () => {
    const one = share(301);
    one.refused(signal);
    const [file] = fs.readdirSync(deploymentDirectory(deployment)).filter((n) => n.startsWith("pace."));
    fs.chmodSync(path.join(deploymentDirectory(deployment), file as string), 0o666);
    expect(await share(302).othersRefusals()).toEqual([]);
    one.remove();
    expect(fs.readdirSync(deploymentDirectory(deployment)).filter((n) => n.startsWith("pace."))).toEqual([]);
  });
});

describe("the line while the pace waits", () => {
  it("says why, how long and how fast", () => {
    expect(paceLine({ rate: 4.2, pausedUntil: 2_000, refusals: 3, cause: "refused" }, 1_000)).toBe(
      "the platform refused 3 requests for its rate limit: pausing 1.0 s, then sending 4.2 requests a second, more while they pass",
    );
    expect(paceLine({ rate: 14.4, pausedUntil: 0, refusals: 0, cause: "shared" }, 1_000)).toBe(
      "another provider process of this deployment met the platform's rate limit: sending 14 requests a second, more while they pass",
    );
  });
});
