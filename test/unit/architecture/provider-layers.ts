/**
 * The provider's layers, bottom-up (DESIGN, "Two front-ends, one implementation"): small helpers and
 * validation; the neutral vocabulary and what a provider process says (output); the deployment's
 * record; the process's access to the platform; the guardrails the record serves (each folder's
 * README.md says what it holds and may import); the kinds (and the functions); the one list of
 * kinds; the two front-ends; the package's entry point. An import runs back up when it names a file
 * of a higher layer, or when two kinds' folders import each other.
 */

/** The kinds' folders. */
export const KIND_FOLDERS = ["device", "device-fleet", "rps-profile", "rps-fleet", "device-config"] as const;

/** The front-ends' folders. */
export const FRONT_END_FOLDERS = ["dynamic", "plugin"] as const;

const RANKS: Record<string, number> = {
  shared: 0,
  tsl: 1,
  core: 2,
  output: 2,
  deployment: 2.25,
  "platform-access": 2.5,
  guardrails: 2.75,
  ...Object.fromEntries(KIND_FOLDERS.map((kind) => [kind, 3])),
  functions: 3,
  "kinds.ts": 4,
  dynamic: 5,
  plugin: 5,
  "index.ts": 6,
};

/** A provider file's part: its folder (or its own name at the top), e.g. `device` for provider/device/x.ts. */
export function partOf(file: string): string {
  return file.split("/")[1] as string;
}

/** A part's layer; an unknown part sits at the top, so that nothing below may import it. */
export function rankOf(part: string): number {
  return RANKS[part] ?? 6;
}

/** True when `part` is below both front-ends. */
export function belowFrontEnds(part: string): boolean {
  return rankOf(part) < 5;
}
