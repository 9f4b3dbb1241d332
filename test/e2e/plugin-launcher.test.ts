/**
 * The launcher `pulumi-resource-devplatform` speaks the plugin protocol from both places it is
 * run: the repository after `npm run build` (the e2e setup builds it) and the installed (packed)
 * package through its `node_modules/.bin` link. It prints the port as the first line of stdout,
 * serves `pulumirpc.ResourceProvider` there (GetPluginInfo: the package's version; GetSchema: the
 * package schema), and answers `--version`.
 */
import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";
import { emptyPb, grpc, pluginPb, providerGrpc, providerPb } from "../../provider/plugin/server/rpc";
import { e2e } from "./support/e2e-context";

const VERSION = (
  JSON.parse(readFileSync(path.resolve(__dirname, "../../package.json"), "utf8")) as { version: string }
).version;

const launchers = () => ({
  repository: path.resolve(__dirname, "../../bin/pulumi-resource-devplatform"),
  "installed package (.bin link)": path.join(e2e().nodeModules, ".bin", "pulumi-resource-devplatform"),
});

function call<T>(invoke: (callback: (error: Error | null, value?: T) => void) => void): Promise<T> {
  return new Promise((resolve, reject) =>
    invoke((error, value) => (error ? reject(error) : resolve(value as T))),
  );
}

describe("the launcher", () => {
  for (const where of ["repository", "installed package (.bin link)"] as const) {
    it(`serves the provider from the ${where}`, async () => {
      const launcher = launchers()[where];
      expect(execFileSync(launcher, ["--version"], { encoding: "utf8" }).trim()).toBe(VERSION);
      // The engine's address comes last, after the engine's flags; nothing listens there.
      const child = spawn(launcher, ["--logtostderr", "-v=1", "127.0.0.1:1"], {
        stdio: ["ignore", "pipe", "pipe"],
      });
      try {
        const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
        const firstLine = (await lines.next()).value as string;
        expect(firstLine).toMatch(/^\d+$/);
        const client = new providerGrpc.ResourceProviderClient(
          `127.0.0.1:${firstLine}`,
          grpc.credentials.createInsecure(),
        );
        const info = await call<InstanceType<typeof pluginPb.PluginInfo>>((cb) =>
          client.getPluginInfo(new emptyPb.Empty(), cb),
        );
        expect(info.getVersion()).toBe(VERSION);
        const schema = await call<InstanceType<typeof providerPb.GetSchemaResponse>>((cb) =>
          client.getSchema(new providerPb.GetSchemaRequest(), cb),
        );
        expect(JSON.parse(schema.getSchema())).toMatchObject({ name: "devplatform", version: VERSION });
        client.close();
      } finally {
        const exited = new Promise((resolve) => child.on("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
    });
  }
});
