import type { FastifyRequest } from "fastify";
import type { EmulatorContext } from "../context";
import { invalidParameter } from "../http/emulator-error";
import type { PlatformRoute } from "./platform-route";

function field(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  return typeof value === "string" && value !== "" ? value : undefined;
}

function required(body: Record<string, unknown>, name: string): string {
  const value = field(body, name);
  if (value === undefined) throw invalidParameter(`${name} is required`);
  return value;
}

/** Client credentials from HTTP Basic auth, which OAuth 2.0 servers commonly accept too. */
function basicCredentials(request: FastifyRequest): { id: string; secret: string } | undefined {
  const match = /^Basic\s+(\S+)$/i.exec(request.headers.authorization ?? "");
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  return colon < 0 ? undefined : { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

/**
 * `POST /oauth/token`: Get an Access Token (`grant_type=client_credentials`) and Refresh an Access
 * Token (`grant_type=refresh_token`). The body is form-encoded as documented; JSON is accepted too.
 */
export const oauthTokenRoute: PlatformRoute = {
  method: "POST",
  url: "/oauth/token",
  run(ctx: EmulatorContext, request: FastifyRequest) {
    const body = request.body;
    if (typeof body !== "object" || body === null) {
      throw invalidParameter(
        "body must be form-encoded: grant_type=client_credentials&client_id=…&client_secret=…",
      );
    }
    const fields = body as Record<string, unknown>;
    const grantType = required(fields, "grant_type");
    if (grantType === "client_credentials") {
      const basic = basicCredentials(request);
      const clientId = field(fields, "client_id") ?? basic?.id;
      const clientSecret = field(fields, "client_secret") ?? basic?.secret;
      if (clientId === undefined) throw invalidParameter("client_id is required");
      if (clientSecret === undefined) throw invalidParameter("client_secret is required");
      return ctx.tokens.grantClientCredentials(clientId, clientSecret);
    }
    if (grantType === "refresh_token") return ctx.tokens.grantRefreshToken(required(fields, "refresh_token"));
    throw invalidParameter(`grant_type must be client_credentials or refresh_token, got "${grantType}"`);
  },
};
