/**
 * The README's own program ("Using it in your stack") runs as written on the real CLI:
 * `devices: readInventory("inventory.csv")` goes straight into a DeviceFleet, the stack deploys,
 * previews no changes, and destroys.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatInventory } from "../../inventory";
import { serialNumbers } from "./support/fleet-programs";
import { createProject } from "./support/e2e-project";
import { assertOk, type PulumiProject } from "./support/pulumi-project";

/** The first TypeScript block of the README's "Using it in your stack" section. */
function readmeProgram(): string {
  const readme = readFileSync(path.resolve(__dirname, "../../README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Using it in your stack"));
  const match = /```ts\n([\s\S]*?)```/.exec(section);
  if (!match?.[1]) throw new Error("README.md has no ts block under 'Using it in your stack'");
  return match[1];
}

describe("the README's program", () => {
  let project: PulumiProject;

  beforeAll(async () => {
    const inventory = serialNumbers(3, "24").map((sn, i) => ({
      sn,
      name: `readme-${i}`,
      project: "site-a",
      description: "from the README",
      tags: ["readme"],
    }));
    const program = readmeProgram();
    expect(program).toContain('devices: readInventory("inventory.csv")');
    project = await createProject({
      name: "readme",
      program,
      // A user's project type-checks its program: the README's must pass against the package's types.
      typeCheck: true,
      files: { "inventory.csv": formatInventory(inventory) },
    });
  });

  afterAll(async () => {
    assertOk(await project.destroy());
  });

  it("deploys as written, then previews no changes", async () => {
    const up = await project.up();
    expect(up.output).not.toMatch(/is not a property/);
    assertOk(up);
    assertOk(await project.preview({ expectNoChanges: true }));
  });

  it("is type-checked against the package's declarations: a wrong input type fails the preview", async () => {
    const program = readmeProgram();
    const wrong =
      'import type { DeviceArgs } from "pulumi-devplatform";\nconst wrong: DeviceArgs = { sn: 42, name: "x" };\nvoid wrong;\n';
    project.setProgram(`${program}\n${wrong}`);
    const preview = await project.preview();
    expect(preview.exitCode).not.toBe(0);
    expect(preview.output).toMatch(/TS2322.*number.*string/s);
    project.setProgram(program);
  });
});
