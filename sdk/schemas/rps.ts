/** Schemas of RPS (Redirection and Provisioning Service) profile records. */
import { z } from "zod";
import { opt, pageSchema, sortSchema, stringLike } from "./common";

/** RPS profile record. */
export const rpsProfileSchema = z.object({
  sn: z.string(),
  profileUrl: z.string(),
});

/** An RPS profile record: a serial number and its profile URL. */
export type RpsProfile = z.output<typeof rpsProfileSchema>;

/** A page of Query Profile URL List. */
export const rpsSearchResultSchema = pageSchema(rpsProfileSchema);

/** A page of RPS records. */
export type RpsSearchResult = z.output<typeof rpsSearchResultSchema>;

/** Input of `searchRpsProfiles`; paging defaults to 100 records, page 1. */
export const rpsSearchQuerySchema = z.object({
  pageSize: z.number().int().min(1).default(100),
  pageNumber: z.number().int().min(1).default(1),
  sorts: z.array(sortSchema).optional(),
});

/** Input of `searchRpsProfiles`. */
export type RpsSearchQuery = z.input<typeof rpsSearchQuerySchema>;

/** Input of `setRpsProfile`. */
export const setRpsProfileInputSchema = z.object({
  sn: z.string().min(1),
  profileUrl: z.url(),
});

/** Input of `setRpsProfile`. */
export type SetRpsProfileInput = z.input<typeof setRpsProfileInputSchema>;

/** Set and Delete RPS answer with a result string in `data`. */
export const rpsResultSchema = opt(stringLike);
