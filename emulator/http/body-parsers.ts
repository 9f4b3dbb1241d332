import type { FastifyInstance } from "fastify";
import { invalidParameter } from "./emulator-error";
import { parseJson } from "./lossless-json";

/**
 * Request body parsers: JSON without losing 64-bit integers (a deviceId above 2^53 sent as a number
 * keeps every digit), and form encoding for the token endpoint. An empty body parses as `undefined`
 * so that the operation's own validation names what is missing.
 */
export function registerBodyParsers(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === "") return done(null, undefined);
    try {
      done(null, parseJson(text));
    } catch (error) {
      done(invalidParameter(`body is not valid JSON: ${(error as Error).message}`), undefined);
    }
  });
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string" },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    },
  );
}
