import { randomUUID } from "node:crypto";

/** A fresh request id: 32 lower-case hex digits, unique per response. */
export function newRequestId(): string {
  return randomUUID().replaceAll("-", "");
}
