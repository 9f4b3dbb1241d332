/**
 * What the example fleet repository (examples/fleet-repo) must keep as a team copies it, read from
 * its files: actions pinned by commit, the backend URL a secret, approval (`production`) on deploys
 * only, deploys of main only, a required check that always reports, the pack at the `up`, and no
 * link that leaves the copied folder, each program's lock file shipped. The workflows' behaviour is the GitOps e2e tests' (with act).
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "../../../examples/fleet-repo");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");
const WORKFLOWS = ["deploy.yml", "preview.yml", "drift.yml"].map((name) => `.github/workflows/${name}`);

describe("the example fleet repository", () => {
  it.each(WORKFLOWS)("%s pins every action by a commit, its release named beside it", (file) => {
    const uses = [...read(file).matchAll(/^\s*-?\s*uses:\s*(.*)$/gmu)].map((m) => m[1]);
    expect(uses.length).toBeGreaterThan(0);
    for (const line of uses) expect(line).toMatch(/^[\w.-]+\/[\w.-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+/u);
  });

  it.each(WORKFLOWS)("%s reads the backend URL from the secrets, never from the variables", (file) => {
    expect(read(file)).toContain("PULUMI_BACKEND_URL: ${{ secrets.PULUMI_BACKEND_URL }}");
    expect(read(file)).not.toMatch(/vars\.PULUMI_BACKEND_URL|PULUMI_ACCESS_TOKEN/u);
  });

  it("only deploy.yml names `production` (required reviewers); previews and drift name `preview`", () => {
    const environments = (file: string) =>
      [...read(file).matchAll(/^\s*environment:\s*(\S+)/gmu)].map((m) => m[1]);
    expect(environments(WORKFLOWS[0] ?? "")).toEqual(["production"]);
    expect(environments(WORKFLOWS[1] ?? "")).toEqual(["preview"]);
    expect(environments(WORKFLOWS[2] ?? "")).toEqual(["preview"]);
  });

  it("deploy.yml deploys main only, its concurrency group names the ref, and its `up` runs the pack", () => {
    const deploy = read(WORKFLOWS[0] ?? "");
    expect(deploy).toMatch(/up:\n\s+needs: main-only\n\s+if: github\.ref == 'refs\/heads\/main'/u);
    expect(deploy).toContain('if [ "$REF" != refs/heads/main ]; then');
    expect(deploy).toMatch(/group: fleet-deploy-\$\{\{ github\.ref \}\}-/u);
    expect(deploy).toContain("POLICY_PACK: ${{ vars.POLICY_PACK ||");
    expect(read("ci/deploy-stack.sh")).toMatch(
      /pulumi up --yes --skip-preview --stack "\$stack" "\$\{policy_args\[@\]\}"/u,
    );
  });

  it("preview.yml runs on every pull request and its verdict always reports (the required check)", () => {
    const preview = read(WORKFLOWS[1] ?? "");
    expect(preview).not.toMatch(/^\s+paths:/mu);
    expect(preview).toMatch(
      /verdict:\n\s+name: fleet preview verdict\n\s+needs: \[fork, preview\]\n\s+if: always\(\)/u,
    );
    expect(read("README.md")).toContain("**`fleet preview verdict`**");
  });

  it("the README's links resolve inside the copied folder or are absolute", () => {
    const links = [...read("README.md").matchAll(/\]\(([^)]+)\)/gu)].map((m) => m[1] ?? "");
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) {
      if (/^https:\/\//u.test(link)) continue;
      const target = path.resolve(root, link.split("#")[0] ?? "");
      expect(target.startsWith(root + path.sep), link).toBe(true);
      expect(existsSync(target), link).toBe(true);
    }
  });
  it.each(["fleet", "fleet-yaml"])(
    "%s ships its lock file, which takes the package from vendor/ as its package.json does (npm ci)",
    (dir) => {
      const pkg = JSON.parse(read(`${dir}/package.json`)) as { dependencies: Record<string, string> };
      const lock = JSON.parse(read(`${dir}/package-lock.json`)) as {
        lockfileVersion: number;
        packages: Record<string, { version?: string; resolved?: string; dependencies?: object }>;
      };
      const tarball = "file:../vendor/pulumi-devplatform-0.1.0.tgz";
      expect(pkg.dependencies["pulumi-devplatform"]).toBe(tarball);
      expect(lock.lockfileVersion).toBe(3);
      expect(lock.packages[""]?.dependencies).toEqual(pkg.dependencies);
      expect(lock.packages["node_modules/pulumi-devplatform"]?.resolved).toBe(tarball);
      // The SDK the project tests (the CLI the workflows install is 3.259 too).
      if (dir === "fleet") expect(lock.packages["node_modules/@pulumi/pulumi"]?.version).toBe("3.259.0");
    },
  );
});
