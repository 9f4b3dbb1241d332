/**
 * Another provider process of a deployment, as the plugin is beside the dynamic provider host: the
 * parent side starts a support script in a child process with its order in an environment variable
 * and waits for the one result line it prints; the child side joins the deployment and configures
 * the provider as the engine would.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import path from "node:path";
import { configureRuntime, platformClient } from "../../../../provider/platform-access/platform-client";
import { joinDeployment, type Deployment } from "../../../../provider/deployment/shared-record";

/** What every order names: the deployment to join and the provider's configuration. */
export interface ProviderProcessOrder {
  deployment: Deployment;
  baseUrl: string;
  clientId: string;
}

/**
 * Starts `support/<script>` with `order` in `variable` and resolves with its child process and the
 * JSON after `<prefix> ` on the line it prints once its work is done (it then waits for stdin to end).
 */
export async function startProviderProcess<T>(
  script: string,
  variable: string,
  prefix: string,
  order: ProviderProcessOrder,
  children: ChildProcessWithoutNullStreams[],
): Promise<{ child: ChildProcessWithoutNullStreams; result: T }> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(__dirname, script)], {
    env: { ...process.env, [variable]: JSON.stringify(order) },
    stdio: "pipe",
  });
  children.push(child);
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const line = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const found = out.split("\n").find((l) => l.startsWith(`${prefix} `));
      if (found) resolve(found.slice(prefix.length + 1));
    });
    child.once("exit", (code) => reject(new Error(`${script} exited ${String(code)}: ${stderr}`)));
  });
  return { child, result: JSON.parse(line) as T };
}

/** The child's side: joins the order's deployment and configures the provider from it. */
export function joinAsProviderProcess(order: ProviderProcessOrder): void {
  joinDeployment(order.deployment);
  const settings: Record<string, string> = {
    "devplatform:baseUrl": order.baseUrl,
    "devplatform:clientId": order.clientId,
    "devplatform:clientSecret": "demo-secret",
  };
  configureRuntime({
    config: { get: (key: string) => settings[key], require: (key: string) => settings[key] as string },
  });
}

/**
 * The child's side, after its work: prints `<prefix> <result as JSON>` for the parent and stays
 * alive — its record with it, as a provider process does until the deployment ends — until its
 * stdin closes.
 */
export function reportAndStay(prefix: string, result: unknown): void {
  process.stdout.write(`${prefix} ${JSON.stringify(result)}\n`);
  process.stdin.resume();
  process.stdin.on("end", () => {
    void platformClient()
      .then((client) => client.close())
      .finally(() => process.exit(0));
  });
}

/** Runs the child's `main`, exiting 1 with its error on stderr when it fails. */
export function runProviderProcess(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    process.exit(1);
  });
}
