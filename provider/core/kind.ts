/**
 * What a resource kind is, whichever front-end serves it: its check, its one diff, its
 * create/read/update/delete, its import, its recorded inputs and its schema, in the project's own
 * types. The dynamic front-end (`provider/dynamic/`) and the plugin (`provider/plugin/`) translate
 * their protocol to these calls; neither front-end's types appear here.
 */
import type { CheckFailure, Inputs } from "../shared/input-checks";
import type { KindDiff } from "./diff";
import type { ResourceSpec, TypeContributions } from "./schema-spec";

/** What a check answers: the checked inputs and one failure per property that is wrong. */
export interface CheckResult {
  readonly inputs: Inputs;
  readonly failures: CheckFailure[];
}

/** What a create answers: the resource's id and its state (inputs and outputs). */
export interface CreateResult {
  readonly id: string;
  readonly outs: Inputs;
}

/** What a read answers: the id (empty when the resource is gone), its state, and the declared inputs within it. */
export interface ReadResult {
  readonly id: string;
  readonly props: Inputs;
  readonly inputs?: Inputs;
}

/** What an update answers: the resource's new state. */
export interface UpdateResult {
  readonly outs: Inputs;
}

/** What an import's Read answers: the resource's id, its outputs, and inputs that pass Check. */
export interface ImportedResource {
  readonly id: string;
  readonly inputs: Inputs;
  readonly outputs: Inputs;
}

/** A kind's operations on the platform, as both front-ends call them. */
export interface KindOperations {
  /** Checks the program's inputs (`news`) against the recorded ones (`olds`), before any request. */
  check(olds: Inputs, news: Inputs): Promise<CheckResult>;
  /** The kind's one diff of the recorded state (`olds`, outputs) against the checked inputs (`news`). */
  diff(id: string, olds: Inputs, news: Inputs): Promise<KindDiff>;
  create(inputs: Inputs): Promise<CreateResult>;
  read(id: string, props: Inputs): Promise<ReadResult>;
  update(id: string, olds: Inputs, news: Inputs): Promise<UpdateResult>;
  delete(id: string, props: Inputs): Promise<void>;
}

/**
 * How a kind's inputs are recorded where a front-end records the checked inputs under the program's
 * names and takes the resource's name from its URN (the plugin), when they differ from what the
 * kind's operations take (a DeviceFleet's).
 */
export interface RecordedInputs {
  /** The program's inputs (`news`) as the check takes them; `name` is the resource's name. */
  checkInputs(news: Inputs, name: string): Inputs;
  /** Which checked inputs hold a value the program gave as a secret (`secrets`: the program's names). */
  checkedSecrets(secrets: ReadonlySet<string>): ReadonlySet<string>;
  /** Checked inputs as recorded. */
  recorded(checked: Inputs): Inputs;
  /** Recorded inputs (or a state's) as the operations take them: the reverse of {@link recorded}. */
  operationInputs(recorded: Inputs): Inputs;
  /** Inputs recorded under the name of an output of another shape. */
  readonly reshaped: readonly string[];
  /**
   * What a preview answers for outputs the recorded inputs already tell in part (a fleet's serial
   * numbers, the keys of its `devices` and `deviceIds`), with the values not yet known as unknowns;
   * `{}` where they tell nothing. Policies read these at preview (the engine gives a stack policy
   * the outputs).
   */
  previewOutputs?(recorded: Inputs): Inputs;
}

/** One resource kind: its operations, its import, and its place in the package schema. */
export interface KindDefinition extends KindOperations {
  /**
   * Reads a resource to import from the id the user gave (`pulumi import … ID`); `name` is the
   * resource's name (the URN's), which a DeviceFleet takes as its id.
   */
  importRead(id: string, name?: string): Promise<ImportedResource>;
  /** The declared inputs within a recorded state (what a refresh's Read answers as `inputs`). */
  inputsOf(state: Inputs): Inputs;
  /** The kind's resource in the package schema. */
  readonly spec: ResourceSpec;
  /** The object and enum types its spec refers to. */
  readonly types?: TypeContributions;
  /** Where its recorded inputs differ from what its operations take (none: the same). */
  readonly recordedInputs?: RecordedInputs;
}

/** A function of the package (`devplatform:index:<name>`). */
export interface FunctionDefinition {
  /** Validates `args` (a failure names the argument and the rule) and answers the function's result. */
  invoke(args: Inputs): Promise<Inputs>;
}
