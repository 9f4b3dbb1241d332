/**
 * `devplatform pr-comment` and `devplatform drift-issue`, run as a workflow runs them, against a
 * STAND-IN for GitHub's REST API on loopback (test/support/github-stand-in.ts — not GitHub): the
 * stack's comment is found by its marker on the third page of a pull request's 75 comments and
 * updated in place; a second stack gets a comment of its own; an unchanged body is not written;
 * the drift issue is opened, updated, left alone, and closed. Request counts are exact.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GitHubStandIn } from "../../support/github-stand-in";
import { runDevplatform } from "./support/run-devplatform";

const TOKEN = "ghs_standInToken0123456789";
const dir = mkdtempSync(path.join(tmpdir(), "review-comment-"));
const recorded = (name: string) => path.join(__dirname, "../../unit/cli/fixtures/review", name);

describe("the review's comment and drift issue on a GitHub stand-in", () => {
  let github: GitHubStandIn;
  let env: Record<string, string>;

  beforeAll(async () => {
    // Pages of 30 at most, so that 75 comments take three pages whatever `per_page` asks.
    github = await GitHubStandIn.start({ token: TOKEN, pageLimit: 30 });
    env = { GITHUB_TOKEN: TOKEN, GITHUB_API_URL: github.url };
  });

  afterAll(async () => {
    await github?.stop();
  });

  function body(name: string, text: string): string {
    const file = path.join(dir, name);
    writeFileSync(file, text);
    return file;
  }

  const comment = (stack: string, file: string) =>
    runDevplatform(["pr-comment", "--repo", "acme/fleet", "--pr", "7", "--stack", stack, "--body", file], {
      env,
    });

  it("updates the stack's one comment in place, found on the last page", async () => {
    const pr = github.addIssue({ number: 7, pullRequest: true }, 70);
    const first = await comment(
      "production",
      body("first.md", "<!-- devplatform-summary:production -->\nfirst"),
    );
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^created comment \d+ for stack production on acme\/fleet#7\n$/);
    // Others comment after it: the stack's comment is now on the third page of 30.
    for (let i = 0; i < 5; i++) pr.comments.push({ id: 90_000 + i, body: `later ${i}` });
    github.requests.length = 0;
    const second = await comment("production", body("second.md", "second, without the marker"));
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/^updated comment \d+/);
    expect(github.counts()).toEqual({ "GET /issues/:number/comments": 3, "PATCH /issues/comments/:id": 1 });
    const ours = pr.comments.filter((c) => c.body.includes("<!-- devplatform-summary:production -->"));
    expect(ours).toEqual([
      { id: ours[0]?.id, body: "<!-- devplatform-summary:production -->\nsecond, without the marker" },
    ]);
    expect(pr.comments).toHaveLength(76);

    github.requests.length = 0;
    const again = await comment("production", body("again.md", "second, without the marker"));
    expect(again.stdout).toMatch(/^unchanged comment/);
    expect(github.counts()).toEqual({ "GET /issues/:number/comments": 3 });

    const other = await comment("staging", body("staging.md", "staging's"));
    expect(other.stdout).toMatch(/^created comment \d+ for stack staging/);
    expect(pr.comments).toHaveLength(77);
  });

  it("fails naming the variable without a token, and GitHub's answer with a wrong one", async () => {
    const file = body("x.md", "x");
    const args = ["pr-comment", "--repo", "acme/fleet", "--pr", "7", "--stack", "s", "--body", file];
    const none = await runDevplatform(args, { env: { GITHUB_API_URL: github.url, GITHUB_TOKEN: "" } });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain("GITHUB_TOKEN is not set");
    const wrong = await runDevplatform(args, { env: { GITHUB_API_URL: github.url, GITHUB_TOKEN: "wrong" } });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain("(HTTP 401): Bad credentials");
    expect(wrong.stderr).not.toContain(TOKEN);
  });

  const drift = (preview: string, exitCode: number) =>
    runDevplatform(
      [
        "drift-issue",
        "--repo",
        "acme/fleet",
        "--stack",
        "production",
        "--preview",
        preview,
        "--exit-code",
        String(exitCode),
      ],
      { env },
    );

  it("opens, updates and keeps one drift issue per stack", async () => {
    github.addIssue({ number: 40, title: "unrelated", labels: ["drift"], body: "no marker" });
    github.requests.length = 0;
    const opened = await drift(recorded("plugin-preview.json"), 7);
    expect(opened.stderr).toBe("");
    expect(opened.stdout).toBe("drift issue #41 of stack production: opened\n");
    const issue = github.issues.get(41);
    expect(issue).toMatchObject({ title: "Drift in stack production", labels: ["drift"], state: "open" });
    expect(issue?.body).toContain("<!-- devplatform-drift:production -->");
    expect(issue?.body).toContain("## Drift in stack `production`");
    expect(issue?.body).toContain('name `"device-0"` → `"device-0-renamed"`');
    expect(github.counts()).toEqual({ "GET /issues": 1, "POST /issues": 1 });

    expect((await drift(recorded("plugin-preview.json"), 7)).stdout).toContain(
      "#41 of stack production: unchanged",
    );
    expect((await drift(recorded("dynamic-preview.json"), 7)).stdout).toContain(
      "#41 of stack production: updated",
    );
    expect(github.issues.get(41)?.body).toContain("DeviceConfig site-a-reporting");
  });

  it("leaves the issue alone on a failed preview, and closes it once there is no drift", async () => {
    // A failed preview judges nothing.
    const failed = await drift(recorded("plugin-bad-input.json"), 255);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(
      "the preview of stack production failed; its drift issue is left as it is",
    );
    expect(github.issues.get(41)?.state).toBe("open");

    const clean = body("clean.json", JSON.stringify({ steps: [], diagnostics: [] }));
    github.requests.length = 0;
    expect((await drift(clean, 0)).stdout).toBe("drift issue #41 of stack production: closed\n");
    expect(github.issues.get(41)?.state).toBe("closed");
    expect(github.issues.get(41)?.comments.map((c) => c.body)).toEqual([
      "A preview of stack `production` finds no drift any more: closing.",
    ]);
    expect(github.counts()).toEqual({
      "GET /issues": 1,
      "POST /issues/:number/comments": 1,
      "PATCH /issues/:number": 1,
    });
    expect((await drift(clean, 0)).stdout).toBe("drift issue of stack production: none\n");
    expect(github.issues.get(40)?.state).toBe("open");
  });
});
