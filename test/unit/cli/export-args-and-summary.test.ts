import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseExportArgs, type ExportArgs } from "../../../cli/export/args";
import { resolveCredentials } from "../../../cli/export/credentials";
import { projectFiles } from "../../../cli/export/project-files";
import { shellQuote, summaryText } from "../../../cli/export/summary";
import { UsageError } from "../../../cli/errors";
import { readPackageInfo } from "../../../provider/shared/package-info";

function parsed(args: string[]): ExportArgs {
  const result = parseExportArgs(args);
  if ("help" in result) throw new Error("help");
  return result;
}

describe("export arguments", () => {
  it("has defaults, repeatable filters and a project name from the directory", () => {
    const args = parsed(["--out", "exports/Building A!", "--project", "a", "--project", "b", "--tag", "t"]);
    expect(args).toMatchObject({
      out: path.resolve("exports/Building A!"),
      style: "fleet",
      projectName: "Building-A",
      projects: ["a", "b"],
      tags: ["t"],
      includeRps: false,
      includeConfig: false,
      force: false,
      clientSecretStdin: false,
    });
  });

  it("-h and --help ask for the usage", () => {
    expect(parseExportArgs(["-h"])).toEqual({ help: true });
    expect(parseExportArgs(["--out", "x", "--help"])).toEqual({ help: true });
  });

  it.each([
    [["--out", "x", "--client-secret=s3cr3t-value"], "there is no --client-secret option"],
    [["--out", "x", "--project", " "], "--project needs a non-empty value"],
    [["--out", "x", "--style"], "argument missing"],
  ])("refuses %j", (args, message) => {
    expect(() => parseExportArgs(args)).toThrow(UsageError);
    expect(() => parseExportArgs(args)).toThrow(message);
    try {
      parseExportArgs(args);
    } catch (error) {
      expect((error as Error).message).not.toContain("s3cr3t-value");
    }
  });
});

describe("credentials", () => {
  const args = parsed(["--out", "x"]);
  const noStdin = async () => "";

  it("options override the environment; the secret comes from the environment", async () => {
    const credentials = await resolveCredentials(
      parsed([
        "--out",
        "x",
        "--base-url",
        "https://b.example",
        "--client-id",
        "cli-id",
        "--api-version",
        "v1.0",
      ]),
      {
        DEVPLATFORM_BASE_URL: "https://a.example",
        DEVPLATFORM_CLIENT_ID: "env-id",
        DEVPLATFORM_CLIENT_SECRET: " s ",
      },
      noStdin,
    );
    expect(credentials).toEqual({
      baseUrl: "https://b.example",
      clientId: "cli-id",
      clientSecret: " s ",
      apiVersion: "v1.0",
      apiVersionGiven: true,
    });
  });

  it("--client-secret-stdin reads standard input, without its trailing line break", async () => {
    const credentials = await resolveCredentials(
      parsed(["--out", "x", "--client-secret-stdin"]),
      { DEVPLATFORM_BASE_URL: "https://a.example", DEVPLATFORM_CLIENT_ID: "id" },
      async () => "from-stdin\r\n",
    );
    expect(credentials.clientSecret).toBe("from-stdin");
  });

  it("names every missing variable in one message", async () => {
    await expect(resolveCredentials(args, {}, noStdin)).rejects.toThrow(
      "missing platform credentials: DEVPLATFORM_BASE_URL (or --base-url), DEVPLATFORM_CLIENT_ID (or --client-id), " +
        "DEVPLATFORM_CLIENT_SECRET (or --client-secret-stdin) are not set",
    );
  });

  it("refuses an unknown API version", async () => {
    const env = {
      DEVPLATFORM_BASE_URL: "https://a",
      DEVPLATFORM_CLIENT_ID: "i",
      DEVPLATFORM_CLIENT_SECRET: "s",
    };
    await expect(
      resolveCredentials(args, { ...env, DEVPLATFORM_API_VERSION: "v2" }, noStdin),
    ).rejects.toThrow('the API version must be v1 or v1.0, got "v2"');
  });
});

describe("generated project files", () => {
  it("depend on this package's version and the @pulumi/pulumi it was built with, read from package.json", () => {
    const info = readPackageInfo();
    const files = projectFiles({ projectName: "My.Fleet", style: "fleet", inventory: [], packageInfo: info });
    expect([...files.keys()]).toEqual([
      "Pulumi.yaml",
      "package.json",
      "tsconfig.json",
      ".gitignore",
      "index.ts",
      "inventory.csv",
    ]);
    const manifest = JSON.parse(files.get("package.json") ?? "") as Record<string, Record<string, string>>;
    expect(manifest.name).toBe("my.fleet");
    expect(manifest.dependencies).toEqual({
      "@pulumi/pulumi": `^${info.devDependencies["@pulumi/pulumi"]}`,
      "pulumi-devplatform": `^${info.version}`,
    });
    expect(manifest.devDependencies?.typescript).toBe(info.devDependencies.typescript);
    expect(files.get("Pulumi.yaml")).toMatch(/^name: "My.Fleet"\n/);
  });

  it("are the same bytes for the same input", () => {
    const input = {
      projectName: "p",
      style: "devices" as const,
      inventory: [{ sn: "240000A10001", name: "n" }],
      packageInfo: readPackageInfo(),
    };
    expect(projectFiles(input)).toEqual(projectFiles(input));
  });
});

describe("summary", () => {
  it("quotes shell words only when needed", () => {
    expect(shellQuote("https://platform.example.com:8443/x")).toBe("https://platform.example.com:8443/x");
    expect(shellQuote("my dir")).toBe("'my dir'");
    expect(shellQuote("it's")).toBe("'it'\\''s'");
  });

  it("says where, what and how much, then the next commands with the API version when chosen", () => {
    const text = summaryText({
      out: "/home/me/fleets/site 1",
      style: "devices",
      inventory: [
        { sn: "240000A10001", name: "a", project: "p" },
        { sn: "240000A10002", name: "b" },
      ],
      listed: 1200,
      filtered: true,
      rps: [],
      configGroups: [{ name: "c", serials: ["240000A10001"], properties: { x: 1 } }],
      files: ["Pulumi.yaml", "inventory.csv"],
      requests: "1 token, 12 device searches",
      requestCount: 13,
      seconds: 1.234,
      baseUrl: "https://platform.example.com",
      clientId: "client 1",
      apiVersion: "v1.0",
      cwd: "/home/me",
    });
    expect(text).toBe(
      [
        "Wrote fleets/site 1 (style devices):",
        "  2 devices (of 1,200 in the application) in 1 project, 1 without a project",
        "  0 RPS records",
        "  1 configuration (groups of devices with identical settings, 1 device)",
        "  files: Pulumi.yaml, inventory.csv",
        "Exported in 1.2 s with 13 requests (1 token, 12 device searches).",
        "",
        "Next steps:",
        "  cd 'fleets/site 1' && npm install",
        "  pulumi stack init dev",
        "  pulumi config set devplatform:baseUrl https://platform.example.com",
        "  pulumi config set devplatform:clientId 'client 1'",
        "  pulumi config set --secret devplatform:clientSecret   # asks for the client secret",
        "  pulumi config set devplatform:apiVersion v1.0",
        "  pulumi preview   # the devices are adopted by serial number",
        "  pulumi up",
        "",
      ].join("\n"),
    );
  });
});
