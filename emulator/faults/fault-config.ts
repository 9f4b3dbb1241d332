import { z } from "zod";

/** Kinds of injected faults. */
export const FAULT_KINDS = ["429", "500", "503", "reset", "delay", "reset-after", "empty-after"] as const;
/** One kind of injected fault. */
export type FaultKind = (typeof FAULT_KINDS)[number];

/** Body of `PUT /__emulator/faults`. */
export const faultConfigSchema = z.object({
  /** Probability (0..1) that a matching request is faulted; default 1. */
  rate: z.number().min(0).max(1).default(1),
  /** Kinds to choose from, uniformly at random; empty means no request faults (e.g. only dropProperties). */
  kinds: z.array(z.enum(FAULT_KINDS)).default([]),
  /** Delay of the `delay` kind, milliseconds (default 1000). */
  delayMs: z.number().int().min(0).max(600_000).default(1000),
  /** `Retry-After` of injected 429 and 503 responses, seconds (default 1). */
  retryAfterSeconds: z.number().int().min(0).max(86_400).default(1),
  /** Only requests with these methods (any case); default all. */
  methods: z.array(z.string().transform((m) => m.toUpperCase())).optional(),
  /** Only requests whose path contains this text; default all. */
  pathIncludes: z.string().optional(),
  /** Property ids (top-level or STRUCT child ids) that PATCH and tasks silently do not apply. */
  dropProperties: z.array(z.string()).default([]),
  /** Update a Device Information answers success but leaves the device's `project` as it was. */
  ignoreProject: z.boolean().default(false),
  /** Seed of the random choices, for reproducible runs; default unseeded. */
  seed: z.number().int().optional(),
  /** Fault at most this many requests, then stop faulting (the config stays for dropProperties). */
  times: z.number().int().min(0).optional(),
  /** Let this many matching requests through before faulting any (e.g. fail the second chunk of a job). */
  after: z.number().int().min(0).default(0),
});

/** The input of {@link faultConfigSchema} (what a client sends). */
export type FaultConfigInput = z.input<typeof faultConfigSchema>;
/** A parsed fault configuration. */
export type FaultConfig = z.output<typeof faultConfigSchema>;
