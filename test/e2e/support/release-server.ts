/**
 * A release server on loopback: serves the files of one directory under `/releases/download/v<version>/`,
 * as a project's release page serves its assets, and counts the downloads of each file, so a test
 * can tell that the engine fetched the plugin (and how often).
 */
import { createReadStream, existsSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

/** A running release server. */
export interface ReleaseServer {
  /** `http://127.0.0.1:<port>/releases/download/v${VERSION}`: the engine fills in `${VERSION}`. */
  readonly downloadUrl: string;
  /** Successful downloads per file name. */
  downloads(file: string): number;
  /** Every path asked for, answered or not (for a failure's message). */
  readonly requested: string[];
  stop(): Promise<void>;
}

/** Serves `dir`'s files as the release `version`'s assets. */
export async function startReleaseServer(dir: string, version: string): Promise<ReleaseServer> {
  const counts = new Map<string, number>();
  const requested: string[] = [];
  const prefix = `/releases/download/v${version}/`;
  const server: Server = createServer((request, response) => {
    const url = decodeURIComponent(new URL(request.url ?? "/", "http://loopback").pathname);
    requested.push(url);
    const name = url.startsWith(prefix) ? url.slice(prefix.length) : "";
    const file = path.join(dir, name);
    if (name === "" || name.includes("/") || !existsSync(file)) {
      response.writeHead(404).end("not found\n");
      return;
    }
    counts.set(name, (counts.get(name) ?? 0) + 1);
    response.writeHead(200, {
      "content-type": "application/octet-stream",
      "content-length": String(statSync(file).size),
    });
    createReadStream(file).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    downloadUrl: `http://127.0.0.1:${port}/releases/download/v\${VERSION}`,
    downloads: (file) => counts.get(file) ?? 0,
    requested,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
