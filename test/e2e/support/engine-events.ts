/**
 * Reads the engine's event log (`pulumi … --event-log FILE`, one JSON event a line) into the
 * structured result the e2e tests assert on: the change summary, each resource step and the
 * diagnostics.
 */
import { readFileSync } from "node:fs";
import { z } from "zod";

const stepMetadata = z.object({
  op: z.string(),
  urn: z.string(),
  type: z.string(),
  diffs: z.array(z.string()).optional(),
  // The event log names a property's change `diffKind` (`update`, `add-replace`, …).
  detailedDiff: z
    .record(z.string(), z.object({ diffKind: z.string(), inputDiff: z.boolean().optional() }).loose())
    .nullish(),
  keys: z.array(z.string()).optional(),
  new: z
    .object({
      inputs: z.record(z.string(), z.unknown()).nullish(),
      outputs: z.record(z.string(), z.unknown()).nullish(),
    })
    .loose()
    .nullish(),
  old: z
    .object({
      inputs: z.record(z.string(), z.unknown()).nullish(),
      outputs: z.record(z.string(), z.unknown()).nullish(),
    })
    .loose()
    .nullish(),
});

const engineEvent = z
  .object({
    resourcePreEvent: z.object({ metadata: stepMetadata }).loose().optional(),
    resOpFailedEvent: z.object({ metadata: stepMetadata }).loose().optional(),
    diagnosticEvent: z
      .object({
        urn: z.string().optional(),
        message: z.string(),
        severity: z.string(),
        ephemeral: z.boolean().optional(),
      })
      .loose()
      .optional(),
    summaryEvent: z
      .object({
        resourceChanges: z.record(z.string(), z.number()).nullish(),
        durationSeconds: z.number().optional(),
      })
      .loose()
      .optional(),
  })
  .loose();

export type Step = z.infer<typeof stepMetadata>;
export interface Diagnostic {
  urn?: string;
  severity: string;
  message: string;
  /** A status line (progress), shown on the resource's row until the next one. */
  ephemeral?: boolean;
}

export interface EngineEvents {
  /** Count of resources per operation (`create`, `update`, `same`, `delete`, `replace`, …). */
  changes: Record<string, number>;
  steps: Step[];
  failedSteps: Step[];
  diagnostics: Diagnostic[];
}

/** Parses an event log file; a missing file (the CLI failed before the engine started) is empty. */
export function readEngineEvents(file: string): EngineEvents {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return { changes: {}, steps: [], failedSteps: [], diagnostics: [] };
  }
  const result: EngineEvents = { changes: {}, steps: [], failedSteps: [], diagnostics: [] };
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    const event = engineEvent.parse(JSON.parse(line));
    if (event.resourcePreEvent) result.steps.push(event.resourcePreEvent.metadata);
    if (event.resOpFailedEvent) result.failedSteps.push(event.resOpFailedEvent.metadata);
    if (event.diagnosticEvent) result.diagnostics.push(event.diagnosticEvent);
    if (event.summaryEvent) result.changes = event.summaryEvent.resourceChanges ?? {};
  }
  return result;
}
