/**
 * A real webhook receiver for tests: a node:http server on loopback that records every request it
 * gets (headers and raw body) and answers with the statuses it is told, in order (then 200). It can
 * also hold its answers until released, to show that nothing waits for it.
 */
import { once } from "node:events";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the receiver got. */
export interface ReceivedRequest {
  readonly method: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

/** A running recording receiver. */
export interface RecordingReceiver {
  readonly url: string;
  readonly requests: ReceivedRequest[];
  /** The statuses of the next answers, in order; once used up, answers are 200. */
  answerWith(...statuses: number[]): void;
  /** Holds every answer until {@link release}; resolves when the first held request has arrived. */
  holdAnswers(): Promise<void>;
  /** Answers the held requests. */
  release(): void;
  close(): Promise<void>;
}

/** Starts a recording receiver on a free loopback port. */
export async function startRecordingReceiver(): Promise<RecordingReceiver> {
  const requests: ReceivedRequest[] = [];
  const statuses: number[] = [];
  let holding = false;
  let held: (() => void)[] = [];
  let onHeld: (() => void) | undefined;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      requests.push({ method: request.method ?? "", headers: request.headers, body: Buffer.concat(chunks) });
      const status = statuses.shift() ?? 200;
      const answer = () => response.writeHead(status, { "content-type": "text/plain" }).end(String(status));
      if (!holding) return answer();
      held.push(answer);
      onHeld?.();
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    requests,
    answerWith: (...next) => statuses.push(...next),
    holdAnswers() {
      holding = true;
      return new Promise((resolve) => (onHeld = resolve));
    },
    release() {
      holding = false;
      onHeld = undefined;
      const answers = held;
      held = [];
      for (const answer of answers) answer();
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}
