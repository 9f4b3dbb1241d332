/**
 * The shared state backend of the GitOps tests: S3 as moto's server answers it on loopback
 * (`scripts/provision-moto.sh`), one bucket that every workflow run of a test logs in to, as a
 * team's runners share one bucket. The URL is the one the README gives a team, with moto's endpoint.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

const repoRoot = path.resolve(__dirname, "../../../..");

export interface S3Backend {
  /** `PULUMI_BACKEND_URL`. */
  url: string;
  /** What the workflows' `AWS_*` secrets hold (moto accepts any). */
  credentials: { AWS_ACCESS_KEY_ID: string; AWS_SECRET_ACCESS_KEY: string };
  /** The keys of the bucket's objects under `prefix`. */
  list(prefix: string): Promise<string[]>;
  stop(): Promise<void>;
}

/** Starts moto's server on a free loopback port and creates `bucket` in it. */
export async function startS3Backend(bucket: string): Promise<S3Backend> {
  const venv = execFileSync("bash", ["scripts/provision-moto.sh"], {
    cwd: repoRoot,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  }).trim();
  const child = spawn(path.join(venv, "bin", "moto_server"), ["-H", "127.0.0.1", "-p", "0"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const endpoint = await listeningAddress(child);
  const created = await fetch(`http://${endpoint}/${bucket}`, { method: "PUT" });
  if (!created.ok) throw new Error(`moto refused to create bucket ${bucket}: ${created.status}`);
  return {
    url: `s3://${bucket}?endpoint=${endpoint}&disableSSL=true&s3ForcePathStyle=true&region=us-east-1`,
    credentials: { AWS_ACCESS_KEY_ID: "moto-key", AWS_SECRET_ACCESS_KEY: "moto-secret" },
    async list(prefix) {
      const response = await fetch(
        `http://${endpoint}/${bucket}?list-type=2&prefix=${encodeURIComponent(prefix)}`,
      );
      const text = await response.text();
      return [...text.matchAll(/<Key>([^<]*)<\/Key>/g)].map((m) => m[1] ?? "");
    },
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/** The `host:port` moto prints once it listens (" * Running on http://127.0.0.1:PORT"). */
function listeningAddress(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = "";
    const look = (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /Running on http:\/\/(127\.0\.0\.1:\d+)/.exec(seen);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout?.on("data", look);
    child.stderr?.on("data", look);
    child.once("exit", (code) => reject(new Error(`moto_server exited (${code}) before listening: ${seen}`)));
  });
}
