/**
 * Runs the example receiver: `WEBHOOK_SECRET=… PORT=8787 npx tsx main.ts`. Prints the URL it
 * listens on first, then one block per configuration task result the platform reports.
 */
import type { AddressInfo } from "node:net";
import { createReceiver } from "./receiver";

const secret = process.env.WEBHOOK_SECRET;
if (!secret) {
  console.error("set WEBHOOK_SECRET to the application's webhook secret");
  process.exit(2);
}
const port = Number(process.env.PORT ?? 8787);
const host = process.env.HOST ?? "127.0.0.1";

const server = createReceiver({ secret });
server.listen(port, host, () => {
  const { port: actual } = server.address() as AddressInfo;
  console.log(`webhook receiver listening on http://${host}:${actual}/`);
});
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}
