/**
 * A webhook receiver for the device platform: node:http, no framework. Each POST is checked with
 * the SDK's verifyWebhookDelivery (signature, timestamp window, well-formed events) and a nonce seen
 * before is refused, so a forged, late or replayed delivery gets 401 and nothing is printed for it.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import {
  verifyWebhookDelivery,
  WebhookVerificationError,
  type VerifiedWebhookDelivery,
} from "pulumi-devplatform/sdk";
import { describeEvent } from "./print-events";
import { ReplayGuard } from "./replay-guard";

/** Options of {@link createReceiver}. */
export interface ReceiverOptions {
  /** The application's webhook secret. */
  readonly secret: string;
  /** Where result lines go; default console.log. */
  readonly print?: (line: string) => void;
  /** Largest body accepted, bytes; default 1 MiB. */
  readonly maxBodyBytes?: number;
}

const TOLERANCE_SECONDS = 60;

class BodyTooLarge extends Error {}

async function rawBody(request: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new BodyTooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** A server that verifies deliveries, prints their events and answers 200 (401 when refused). */
export function createReceiver(options: ReceiverOptions): Server {
  const { secret, print = console.log, maxBodyBytes = 1 << 20 } = options;
  const replays = new ReplayGuard(2 * TOLERANCE_SECONDS * 1000);
  return createServer((request, response) => {
    const answer = (status: number, text: string) =>
      response.writeHead(status, { "content-type": "text/plain; charset=utf-8" }).end(`${text}\n`);
    if (request.method !== "POST") return answer(405, "POST only");
    rawBody(request, maxBodyBytes)
      .then(
        (body) => {
          let delivery: VerifiedWebhookDelivery;
          try {
            delivery = verifyWebhookDelivery({
              headers: request.headers,
              body,
              secret,
              toleranceSeconds: TOLERANCE_SECONDS,
            });
          } catch (error) {
            if (error instanceof WebhookVerificationError) return answer(error.httpStatus, error.code);
            throw error;
          }
          // The nonce the signature was checked over, not the raw header: a replay whose header
          // differs from it (padding) must still be this nonce's second sight.
          if (!replays.firstSight(delivery, Date.now())) return answer(401, "replayed");
          for (const event of delivery.events) for (const line of describeEvent(event)) print(line);
          answer(200, "ok");
        },
        (error: unknown) => answer(error instanceof BodyTooLarge ? 413 : 400, "unreadable body"),
      )
      // A bug of ours: the platform retries a 5xx, so the events are not lost.
      .catch((error: unknown) => {
        console.error(error);
        if (!response.headersSent) answer(500, "internal error");
      });
  });
}
