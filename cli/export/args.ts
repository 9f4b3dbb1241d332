/**
 * The command line of `devplatform export`, parsed with `node:util` parseArgs (strict: an unknown
 * option is a usage error). The client secret has no option on purpose: a command line shows in the
 * process list and in shell history.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { UsageError } from "../errors";
import type { ExportStyle } from "./index-template";

/** `devplatform export --help`. */
export const EXPORT_USAGE = `Usage: devplatform export --out DIR [options]

Reads the devices of a device-platform application (and, if asked, its RPS records and the
devices' configuration) and writes DIR: a Pulumi TypeScript project whose data files hold the
fleet (inventory.csv, rps.csv, config.json) and whose index.ts declares it. Its first
\`pulumi up\` adopts the devices already on the platform by serial number.

Output:
  --out DIR              the project directory to write (required); written whole or not at all
  --force                replace DIR when it exists and is not empty (refused otherwise)
  --style fleet|devices  fleet (default): one DeviceFleet per platform project;
                         devices: one Device per device, named by its serial number
  --project-name NAME    the Pulumi project's name (default: the name of DIR)
  --take-over            devices carrying another stack's owner tag (a stack removed with
                         \`pulumi stack rm --force\`, or whose backend is lost) are taken over:
                         the program's fleets get takeOverFrom naming those stacks (its
                         Devices, takeOver: true). Without it the summary names those stacks,
                         and the first \`pulumi up\` refuses their devices

What to export (all devices of the application by default):
  --project P            only devices of project P; repeat for several projects
  --tag T                only devices tagged T; repeat for several tags
                         A device is exported when its project is one of the --project values
                         and it has at least one of the --tag values (each filter applies only
                         when given). A device without a project matches no --project.
  --include-rps          also the application's RPS records (rps.csv, one RpsProfile each);
                         records have no project or tags, so filters do not apply to them
  --include-config       also each device's configuration (config.json): the writable
                         properties of its TSL model, one DeviceConfig per group of devices
                         with identical values; 2 more requests per device

Platform (the client secret is read from the environment or standard input, never an option):
  --base-url URL         default $DEVPLATFORM_BASE_URL
  --client-id ID         default $DEVPLATFORM_CLIENT_ID
  --client-secret-stdin  read the client secret from standard input
                         instead of $DEVPLATFORM_CLIENT_SECRET
  --api-version V        v1 (default) or v1.0; default $DEVPLATFORM_API_VERSION

  -h, --help             print this text

Exit status: 0 written, 1 failed (nothing written), 2 usage error.
`;

/** What the command line asks `export` to do. */
export interface ExportArgs {
  /** Absolute path of the directory to write. */
  readonly out: string;
  readonly force: boolean;
  readonly style: ExportStyle;
  readonly projectName: string;
  readonly projects: readonly string[];
  readonly tags: readonly string[];
  readonly includeRps: boolean;
  readonly includeConfig: boolean;
  /** Take over the devices that carry another stack's owner tag. */
  readonly takeOver: boolean;
  readonly baseUrl: string | undefined;
  readonly clientId: string | undefined;
  readonly clientSecretStdin: boolean;
  readonly apiVersion: string | undefined;
}

/** Pulumi's rule for project names. */
const PROJECT_NAME = /^[A-Za-z0-9_.-]{1,100}$/;

function defaultProjectName(out: string): string {
  const name = path
    .basename(out)
    .replace(/[^A-Za-z0-9_.-]+/g, "-")
    .replace(/^[-.]+|-+$/g, "")
    .slice(0, 100);
  return name === "" ? "devplatform-fleet" : name;
}

function usageError(message: string): UsageError {
  return new UsageError(message, EXPORT_USAGE);
}

/** Parses `export`'s arguments; `{ help: true }` for `--help`. Throws {@link UsageError}. */
export function parseExportArgs(args: readonly string[]): ExportArgs | { help: true } {
  // Refuse a secret on the command line before parseArgs, whose messages would echo the value.
  if (args.some((arg) => arg === "--client-secret" || arg.startsWith("--client-secret="))) {
    throw usageError(
      "there is no --client-secret option: a command line shows in the process list and shell history. " +
        "Set DEVPLATFORM_CLIENT_SECRET, or pipe the secret in with --client-secret-stdin",
    );
  }
  let values;
  try {
    ({ values } = parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: false,
      options: {
        out: { type: "string" },
        force: { type: "boolean" },
        style: { type: "string" },
        "project-name": { type: "string" },
        project: { type: "string", multiple: true },
        tag: { type: "string", multiple: true },
        "include-rps": { type: "boolean" },
        "include-config": { type: "boolean" },
        "take-over": { type: "boolean" },
        "base-url": { type: "string" },
        "client-id": { type: "string" },
        "client-secret-stdin": { type: "boolean" },
        "api-version": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (error) {
    throw usageError((error as Error).message);
  }
  if (values.help) return { help: true };
  if (values.out === undefined || values.out.trim() === "") throw usageError("--out DIR is required");
  const style = values.style ?? "fleet";
  if (style !== "fleet" && style !== "devices") {
    throw usageError(`--style must be fleet or devices, got "${style}"`);
  }
  const out = path.resolve(values.out);
  const projectName = values["project-name"] ?? defaultProjectName(out);
  if (!PROJECT_NAME.test(projectName)) {
    throw usageError(
      `--project-name must be 1 to 100 letters, digits, "-", "_" or "." (a Pulumi project name), got "${projectName}"`,
    );
  }
  for (const [option, list] of [
    ["--project", values.project],
    ["--tag", values.tag],
  ] as const) {
    if (list?.some((value) => value.trim() === "")) throw usageError(`${option} needs a non-empty value`);
  }
  return {
    out,
    force: values.force ?? false,
    style,
    projectName,
    projects: values.project ?? [],
    tags: values.tag ?? [],
    includeRps: values["include-rps"] ?? false,
    includeConfig: values["include-config"] ?? false,
    takeOver: values["take-over"] ?? false,
    baseUrl: values["base-url"],
    clientId: values["client-id"],
    clientSecretStdin: values["client-secret-stdin"] ?? false,
    apiVersion: values["api-version"],
  };
}
