/**
 * Schema of Token_Details. The request layer unwraps the envelope, or passes a bare body (as a plain
 * OAuth server answers) straight through.
 */
import { z } from "zod";
import { numberLike, opt } from "./common";

/** Access token lifetime the platform documents, used when a response omits `expires_in`. */
const DEFAULT_EXPIRES_IN_SECONDS = 3600;

/** Token_Details. Only `access_token` is required; lifetimes default to the documented ones. */
export const tokenDetailsSchema = z.object({
  access_token: z.string().min(1),
  refresh_token: opt(z.string().min(1)),
  expires_in: opt(numberLike).transform((v) => v ?? DEFAULT_EXPIRES_IN_SECONDS),
  refresh_token_expires_in: opt(numberLike),
});

/** Token_Details. */
export type TokenDetails = z.output<typeof tokenDetailsSchema>;
