/**
 * A damaged inventory makes an `up` delete nothing (issue #36), on the real CLI: the program reads
 * `inventory.csv` with readInventory straight into a DeviceFleet, as the README shows, and the file
 * is then saved the ways people damage it. Mixed line endings read as the same devices (no
 * change); a header with no rows, a Latin-1 export and a file cut off fail the program with one
 * line naming the file (no stack trace); a program that allows an empty file is stopped by the
 * fleet's default against mass removal; and the stack's removal budget (`devplatform:maxRemovals`)
 * stops two fleets whose removals add up over it, naming both, through either front-end.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { EmulatorControl } from "../../emulator";
import { createProject } from "./support/e2e-project";
import { serialNumbers } from "./support/fleet-programs";
import { FRONT_ENDS } from "./support/front-ends";
import { writesOf } from "./support/platform-writes";
import { assertOk } from "./support/pulumi-project";
import { e2e } from "./support/e2e-context";

const HEADER = "sn,name,project,description,tags";

function program(options = ""): string {
  return [
    `import * as path from "node:path";`,
    `import * as devplatform from "pulumi-devplatform";`,
    `import { readInventory } from "pulumi-devplatform/inventory";`,
    `new devplatform.DeviceFleet("site-a", {`,
    `  devices: readInventory(path.join(__dirname, "inventory.csv")${options}),`,
    `});`,
    "",
  ].join("\n");
}

let control: EmulatorControl;
beforeAll(() => {
  control = new EmulatorControl(e2e().emulatorUrl);
});

describe("a damaged inventory.csv", () => {
  it("makes an up delete nothing, and says what is wrong with the file in one line", async () => {
    const serials = serialNumbers(5);
    const rows = serials.map((sn, i) => `${sn},capteur-entrée-${i},site-a,,`);
    const project = await createProject({
      name: "damaged-inventory",
      program: program(),
      files: { "inventory.csv": `${HEADER}\r\n${rows.join("\r\n")}\r\n` },
    });
    assertOk(await project.up());
    const file = path.join(project.dir, "inventory.csv");
    const upWrites = async () => {
      await control.resetCounters();
      const up = await project.up();
      return { up, writes: writesOf((await control.counters()).byRoute) };
    };

    // git's autocrlf or a script appending rows: some lines end in LF only. The same devices.
    writeFileSync(file, `${HEADER}\r\n${rows.slice(0, 2).join("\r\n")}\n${rows.slice(2).join("\n")}\r\n`);
    let { up, writes } = await upWrites();
    assertOk(up);
    expect(writes).toEqual({});
    expect(up.changes).not.toHaveProperty("update");

    const damaged: [string, Buffer | string, RegExp][] = [
      ["a header with no rows", `${HEADER}\r\n`, /inventory\.csv: the file has a header and no devices/],
      [
        "a Latin-1 export",
        Buffer.from(`${HEADER}\r\n${rows.join("\r\n")}\r\n`, "latin1"),
        /inventory\.csv:2: the file is not UTF-8: byte 0xE9 cannot be read as UTF-8; it looks like Latin-1/,
      ],
      [
        "a file cut off at a cell boundary",
        `${HEADER}\r\n${rows.slice(0, 4).join("\r\n")}\r\n${serials[4] as string},capteur-entrée-4`,
        /inventory\.csv:6: the file ends in the middle of this line \(2 of 5 cells, and no line end\)/,
      ],
    ];
    for (const [what, bytes, message] of damaged) {
      writeFileSync(file, bytes);
      ({ up, writes } = await upWrites());
      expect(up.exitCode, what).not.toBe(0);
      expect(up.output, what).toMatch(message);
      expect(up.output, what).not.toMatch(/unhandled exception|at readInventory|\n\s+at /);
      expect(writes, what).toEqual({});
    }

    // A program that allows an empty file: the fleet's default against mass removal stops it.
    writeFileSync(file, `${HEADER}\r\n`);
    project.setProgram(program(", { allowEmpty: true }"));
    ({ up, writes } = await upWrites());
    expect(up.exitCode).not.toBe(0);
    expect(up.output).toMatch(
      /DeviceFleet site-a would delete 5 of the 5 devices it manages .*more than half of them/,
    );
    expect(writes).toEqual({});
    const devices = (await control.state()).devices.filter((d) => serials.includes(d.sn));
    expect(devices.map((d) => d.name).sort()).toEqual(serials.map((_, i) => `capteur-entrée-${i}`));
  });
});

describe.each(FRONT_ENDS)("the stack's removal budget (%s)", (front) => {
  it("stops an up whose fleets together remove more than devplatform:maxRemovals, naming each", async () => {
    const a = serialNumbers(4);
    const b = serialNumbers(4);
    const fleets = (keep: number) =>
      [
        `import * as devplatform from "pulumi-devplatform";`,
        ...Object.entries({ a, b }).map(
          ([name, serials]) =>
            `new devplatform.DeviceFleet("budget-${name}", { devices: ${JSON.stringify(
              serials.slice(0, keep).map((sn, i) => ({ sn, name: `${name}-${i}` })),
            )} });`,
        ),
        "",
      ].join("\n");
    const project = await createProject({
      name: `removal-budget-${front}`,
      program: fleets(4),
      front,
      config: { "devplatform:maxRemovals": "3" },
    });
    assertOk(await project.up());
    project.setProgram(fleets(2));
    await control.resetCounters();
    const up = await project.up();
    expect(up.exitCode).not.toBe(0);
    expect(up.output).toMatch(
      /this deployment would remove 4 devices, more than the stack's removal budget devplatform:maxRemovals 3: DeviceFleet budget-a removes 2 \(.*\); DeviceFleet budget-b removes 2 \(.*\); nothing was written/,
    );
    expect(writesOf((await control.counters()).byRoute)).toEqual({});
  });
});
