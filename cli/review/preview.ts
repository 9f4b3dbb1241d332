/**
 * A preview as the review reads it, from either machine-readable form of `pulumi preview`:
 * `--json` (one JSON document: `steps`, `diagnostics`, `changeSummary`) or the streaming form
 * (`PULUMI_ENABLE_STREAMING_JSON_PREVIEW=1 pulumi preview --json`: one engine event a line, the
 * only form that carries policy violations). Both become one {@link PreviewReport}.
 */
import { z } from "zod";

/** A resource's state in a step: its type and (checked) inputs and outputs. */
export interface StepState {
  readonly inputs: Record<string, unknown>;
  readonly outputs: Record<string, unknown>;
  /** The provider reference (`URN::id`) the resource is managed through; "" or absent for none. */
  readonly provider?: string;
}

/** One resource step of a preview. */
export interface PreviewStep {
  /** `create`, `update`, `delete`, `replace`, `same`, `create-replacement`, … */
  readonly op: string;
  readonly urn: string;
  readonly type: string;
  readonly old: StepState | undefined;
  readonly new: StepState | undefined;
  /** The provider's detailed diff: property path → `add`, `update`, `delete`, `…-replace`. */
  readonly detailedDiff: Readonly<Record<string, string>> | undefined;
}

/** A message of the engine or a provider. */
export interface PreviewDiagnostic {
  readonly urn: string | undefined;
  readonly severity: string;
  readonly message: string;
}

/** A policy pack's finding on a resource or the stack. */
export interface PolicyViolation {
  readonly urn: string | undefined;
  readonly pack: string;
  readonly policy: string;
  /** `advisory`, `mandatory` or `remediate`. */
  readonly level: string;
  /** What the policy checks (its description). */
  readonly description: string;
  /** What is wrong, as the policy reported it. */
  readonly message: string;
}

/** What a preview says, whichever form it came in. */
export interface PreviewReport {
  readonly format: "json" | "stream";
  readonly steps: readonly PreviewStep[];
  readonly diagnostics: readonly PreviewDiagnostic[];
  readonly policies: readonly PolicyViolation[];
}

const record = z.record(z.string(), z.unknown());
const state = z
  .object({
    type: z.string().optional(),
    inputs: record.nullish(),
    outputs: record.nullish(),
    provider: z.string().nullish(),
  })
  .loose();
const diffEntry = z
  .object({ kind: z.string().optional(), diffKind: z.string().optional() })
  .loose()
  .transform((entry) => entry.kind ?? entry.diffKind ?? "update");
const detailed = z.record(z.string(), diffEntry).nullish();

const jsonStep = z
  .object({
    op: z.string(),
    urn: z.string(),
    type: z.string().optional(),
    oldState: state.nullish(),
    newState: state.nullish(),
    detailedDiff: detailed,
  })
  .loose();
const diagnostic = z
  .object({ urn: z.string().optional(), severity: z.string(), message: z.string() })
  .loose();
const jsonPreview = z
  .object({ steps: z.array(jsonStep).nullish(), diagnostics: z.array(diagnostic).nullish() })
  .loose();

const eventMetadata = z
  .object({
    op: z.string(),
    urn: z.string(),
    type: z.string(),
    old: state.nullish(),
    new: state.nullish(),
    detailedDiff: detailed,
  })
  .loose();
const policyEvent = z
  .object({
    resourceUrn: z.string().optional(),
    message: z.string(),
    policyName: z.string(),
    policyPackName: z.string(),
    enforcementLevel: z.string(),
  })
  .loose();
const engineEvent = z
  .object({
    resourcePreEvent: z.object({ metadata: eventMetadata }).loose().optional(),
    diagnosticEvent: diagnostic.optional(),
    policyEvent: policyEvent.optional(),
  })
  .loose();

function stateOf(given: z.infer<typeof state> | null | undefined): StepState | undefined {
  if (!given) return undefined;
  const state = { inputs: given.inputs ?? {}, outputs: given.outputs ?? {} };
  return given.provider ? { ...state, provider: given.provider } : state;
}

/** The type token of a URN (`urn:pulumi:stack::project::TYPE::name`). */
export function typeOfUrn(urn: string): string {
  const parts = urn.split("::");
  return parts[2]?.split("$").pop() ?? "";
}

function fromJson(document: z.infer<typeof jsonPreview>): PreviewReport {
  const steps = (document.steps ?? []).map((step) => ({
    op: step.op,
    urn: step.urn,
    type: step.type ?? step.newState?.type ?? step.oldState?.type ?? typeOfUrn(step.urn),
    old: stateOf(step.oldState),
    new: stateOf(step.newState),
    detailedDiff: step.detailedDiff ?? undefined,
  }));
  const diagnostics = (document.diagnostics ?? []).map(({ urn, severity, message }) => ({
    urn,
    severity,
    message,
  }));
  return { format: "json", steps, diagnostics, policies: [] };
}

/**
 * The engine's policyEvent message is the policy's description, a newline, and the violation's
 * own message (pkg/engine/events.go, policyViolationEvent): the two apart.
 */
function violationText(message: string): { description: string; message: string } {
  const text = message.trim();
  const newline = text.indexOf("\n");
  if (newline < 0) return { description: "", message: text };
  const own = text.slice(newline + 1).trim();
  const description = text.slice(0, newline).trim();
  return own === "" ? { description: "", message: description } : { description, message: own };
}

function fromEvents(lines: readonly string[]): PreviewReport {
  const steps: PreviewStep[] = [];
  const diagnostics: PreviewDiagnostic[] = [];
  const policies: PolicyViolation[] = [];
  for (const line of lines) {
    const event = engineEvent.parse(JSON.parse(line));
    const step = event.resourcePreEvent?.metadata;
    if (step) {
      steps.push({
        op: step.op,
        urn: step.urn,
        type: step.type,
        old: stateOf(step.old),
        new: stateOf(step.new),
        detailedDiff: step.detailedDiff ?? undefined,
      });
    }
    const message = event.diagnosticEvent;
    if (message) diagnostics.push({ urn: message.urn, severity: message.severity, message: message.message });
    const policy = event.policyEvent;
    if (policy) {
      policies.push({
        urn: policy.resourceUrn || undefined,
        pack: policy.policyPackName,
        policy: policy.policyName,
        level: policy.enforcementLevel,
        ...violationText(policy.message),
      });
    }
  }
  return { format: "stream", steps, diagnostics, policies };
}

/** An error in the preview file itself: not a preview's JSON in either form. */
export class PreviewFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PreviewFormatError";
  }
}

/**
 * Reads a preview's output, detecting its form: one JSON document (`pulumi preview --json`), or
 * one JSON event a line (the streaming form). Lines that are not JSON objects (a CLI's warning
 * printed before the document) are ignored in the streaming form.
 */
export function readPreview(text: string): PreviewReport {
  const trimmed = text.trim();
  if (trimmed === "")
    throw new PreviewFormatError("the preview file is empty (did `pulumi preview --json` run?)");
  try {
    const document: unknown = JSON.parse(trimmed);
    const parsed = jsonPreview.safeParse(document);
    if (parsed.success && !("sequence" in (document as object))) return fromJson(parsed.data);
  } catch {
    // Not one document: the streaming form, one event a line.
  }
  const lines = trimmed.split("\n").filter((line) => line.trimStart().startsWith("{"));
  try {
    return fromEvents(lines);
  } catch (error) {
    throw new PreviewFormatError(
      `the preview file is neither \`pulumi preview --json\` output nor its streaming form: ${(error as Error).message.slice(0, 200)}`,
    );
  }
}
