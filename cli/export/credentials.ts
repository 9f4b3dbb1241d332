/**
 * Where `export` gets the platform's URL and credentials: options first, then the environment
 * variables the provider reads too (`DEVPLATFORM_*`), and the client secret only from the
 * environment or standard input.
 */
import { UsageError } from "../errors";
import type { ExportArgs } from "./args";

/** Everything needed to talk to the platform. */
export interface Credentials {
  readonly baseUrl: string;
  readonly clientId: string;
  /** Never printed, logged or written to a file. */
  readonly clientSecret: string;
  readonly apiVersion: "v1" | "v1.0";
  /** Whether the API version was chosen (so the next steps repeat it), or the default. */
  readonly apiVersionGiven: boolean;
}

/** The environment variables read (a subset of `process.env`). */
export type Environment = Readonly<Record<string, string | undefined>>;

/** Reads the client secret from standard input (a pipe). */
export type SecretReader = () => Promise<string>;

const HELP = 'run "devplatform export --help" for the options';

function present(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

/**
 * Resolves the credentials, or throws a {@link UsageError} naming every missing variable at once
 * (one message, not one per attempt).
 */
export async function resolveCredentials(
  args: ExportArgs,
  env: Environment,
  readSecret: SecretReader,
): Promise<Credentials> {
  const baseUrl = present(args.baseUrl) ?? present(env.DEVPLATFORM_BASE_URL);
  const clientId = present(args.clientId) ?? present(env.DEVPLATFORM_CLIENT_ID);
  // A secret may legitimately start or end with spaces: only an empty one counts as missing.
  const envSecret = env.DEVPLATFORM_CLIENT_SECRET === "" ? undefined : env.DEVPLATFORM_CLIENT_SECRET;
  const missing = [
    ...(baseUrl ? [] : ["DEVPLATFORM_BASE_URL (or --base-url)"]),
    ...(clientId ? [] : ["DEVPLATFORM_CLIENT_ID (or --client-id)"]),
    ...(args.clientSecretStdin || envSecret !== undefined
      ? []
      : ["DEVPLATFORM_CLIENT_SECRET (or --client-secret-stdin)"]),
  ];
  if (!baseUrl || !clientId || missing.length > 0) {
    throw new UsageError(
      `missing platform credentials: ${missing.join(", ")} ${missing.length === 1 ? "is" : "are"} not set ` +
        `(the export needs DEVPLATFORM_BASE_URL, DEVPLATFORM_CLIENT_ID and DEVPLATFORM_CLIENT_SECRET)`,
    );
  }
  const version = present(args.apiVersion) ?? present(env.DEVPLATFORM_API_VERSION);
  if (version !== undefined && version !== "v1" && version !== "v1.0") {
    throw new UsageError(`the API version must be v1 or v1.0, got "${version}"; ${HELP}`);
  }
  const clientSecret = args.clientSecretStdin ? await secretFromStdin(readSecret) : envSecret;
  if (clientSecret === undefined) throw new UsageError(`DEVPLATFORM_CLIENT_SECRET is empty; ${HELP}`);
  return {
    baseUrl,
    clientId,
    clientSecret,
    apiVersion: version ?? "v1",
    apiVersionGiven: version !== undefined,
  };
}

async function secretFromStdin(readSecret: SecretReader): Promise<string> {
  // One trailing line break is what `echo` or a here-string adds; it is not part of the secret.
  const secret = (await readSecret()).replace(/\r?\n$/, "");
  if (secret === "") throw new UsageError(`--client-secret-stdin: standard input was empty; ${HELP}`);
  return secret;
}

/** Reads all of `process.stdin`; refuses a terminal, where the secret would be echoed as typed. */
export async function readProcessStdin(): Promise<string> {
  if (process.stdin.isTTY) {
    throw new UsageError(
      "--client-secret-stdin reads a pipe, and standard input is a terminal (the secret would be echoed): " +
        "pipe it in, e.g. from a secret manager, or set DEVPLATFORM_CLIENT_SECRET",
    );
  }
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin)
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString("utf8");
}
