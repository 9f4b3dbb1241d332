/**
 * examples/fleet-repo/ci/deploy-stack.sh when its lease cannot be renewed: the run kills its own
 * `up`, and everything that `up` started, before the lease can lapse, so that a lease unrenewed for
 * DEPLOY_LEASE_SECONDS proves its holder no longer writes (another run may then remove its lock).
 * The backend failing only for the tag is not something the real CLI can be made to do on cue: a
 * `pulumi` on PATH written by this test stands in (its `up` a process tree that would run 60 s;
 * every renewal refused). The lease's other paths run on the real CLI in gitops-deploy.test.ts.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const script = path.resolve(__dirname, "../../../examples/fleet-repo/ci/deploy-stack.sh");
const dir = mkdtempSync(path.join(os.tmpdir(), "deploy-stack-lease-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A `pulumi` whose first `stack tag set` succeeds and every later one fails. */
const STAND_IN = `#!/usr/bin/env bash
state="${dir}"
case "$1 $2 $3" in
  "stack tag get") cat "$state/tag" 2>/dev/null || exit 1 ;;
  "stack tag set")
    if [ -e "$state/tag" ]; then echo "error: the backend refused" >&2; exit 1; fi
    echo "$5" > "$state/tag" ;;
  up*)
    # A process tree, as \`pulumi up\` and its language host and plugins are.
    sleep 60 &
    echo "$$ $!" > "$state/up-pids"
    wait ;;
  *) echo "unexpected: $*" >&2; exit 3 ;;
esac
`;

/** Whether `pid` still runs: a killed process whose parent has not reaped it yet (a zombie) does not. */
const alive = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return !/^\d+ \(.*\) Z/su.test(stat);
  } catch {
    return false;
  }
};

describe("deploy-stack.sh whose lease cannot be renewed", () => {
  it("kills its own up, with every process it started, before the lease lapses, and fails", () => {
    const pulumi = path.join(dir, "pulumi");
    writeFileSync(pulumi, STAND_IN);
    chmodSync(pulumi, 0o755);
    const run = spawnSync("bash", [script, "site-a"], {
      cwd: dir,
      encoding: "utf8",
      timeout: 50_000,
      env: {
        ...process.env,
        PATH: `${dir}:${process.env.PATH ?? ""}`,
        DEPLOY_LEASE_SECONDS: "10",
        GITHUB_RUN_ID: "7",
        GITHUB_REPOSITORY: "acme/fleet-repo",
      },
    });
    const output = `${run.stdout}${run.stderr}`;
    expect(run.signal, output).toBeNull();
    expect(run.status, output).not.toBe(0);
    expect(output).toMatch(
      /The lease on site-a could not be renewed for \d+ s: stopping this `up` before the lease \(10 s\) lapses/u,
    );
    const [upPid, childPid] = readFileSync(path.join(dir, "up-pids"), "utf8").trim().split(" ").map(Number);
    expect(alive(upPid ?? 0)).toBe(false);
    expect(alive(childPid ?? 0)).toBe(false);
    expect(readFileSync(path.join(dir, "tag"), "utf8")).toMatch(
      /^run=7 attempt=1 host=\S+ started=\d+ holder=[0-9a-f]{16} renewal=0$/mu,
    );
  });
});
