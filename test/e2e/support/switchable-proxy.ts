/**
 * A reverse proxy in front of the emulator that can be switched to answer every request with a
 * 404 HTML page — what a stack sees when its base URL points at the wrong server (a web server, a
 * proxy's error page) — without changing the URL recorded in the stack.
 */
import { createServer, request, type Server } from "node:http";

/** The proxy's modes: pass requests to the emulator, or answer 404 HTML. */
export type ProxyMode = "forward" | "html-404";

export interface SwitchableProxy {
  readonly url: string;
  mode: ProxyMode;
  close(): Promise<void>;
}

const PAGE =
  "<!DOCTYPE html><html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>";

/** Starts a proxy to `target` (e.g. the emulator's URL) on a free loopback port. */
export async function startSwitchableProxy(target: string): Promise<SwitchableProxy> {
  const upstream = new URL(target);
  const state = { mode: "forward" as ProxyMode };
  const server: Server = createServer((incoming, outgoing) => {
    if (state.mode === "html-404") {
      incoming.resume();
      outgoing.writeHead(404, { "content-type": "text/html" }).end(PAGE);
      return;
    }
    const forwarded = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on("error", () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("proxy is not listening on TCP");
  return {
    url: `http://127.0.0.1:${address.port}`,
    get mode() {
      return state.mode;
    },
    set mode(mode: ProxyMode) {
      state.mode = mode;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
