/**
 * Runs one policy against fake arguments, as AWSGuard's tests do (`@pulumi/policy` ships no test
 * helpers): a resource as the engine would hand it (type token, name, props), the policy's
 * configuration as `--policy-pack-config` would set it, and the violations it reports. The props
 * are wrapped as `@pulumi/policy` 1.21's server wraps them: behind its unknown-checking proxy, and
 * on the remediation path behind its secrets proxy too (whose `Array.prototype` reads fail array
 * methods that create arrays).
 */
import { createRequire } from "node:module";
import type {
  PolicyResource,
  ResourceValidationArgs,
  ResourceValidationPolicy,
  StackValidationPolicy,
} from "@pulumi/policy";
import { dynamicToken, pluginToken, type Kind } from "../../../policy/resources";

/** Both front-ends' tokens of a kind, for `describe.each`. */
export const FRONT_ENDS = [
  { frontEnd: "plugin", token: pluginToken },
  { frontEnd: "dynamic", token: dynamicToken },
] as const;

/** A resource as a policy receives it. */
export interface FakeResource {
  readonly type: string;
  readonly name: string;
  readonly props: Record<string, unknown>;
}

export function resource(
  token: (kind: Kind) => string,
  kind: Kind,
  name: string,
  props: Record<string, unknown>,
) {
  return { type: token(kind), name, props } satisfies FakeResource;
}

interface PolicyInternals {
  unknownCheckingProxy: (props: object) => Record<string, unknown>;
  secretsPreservingProxy: (props: object) => Record<string, unknown>;
}
// The server's own wrappers (internal modules of the pinned @pulumi/policy), not look-alikes.
const fromPolicy = createRequire(require.resolve("@pulumi/policy"));
const { unknownCheckingProxy } = fromPolicy("./proxy") as Pick<PolicyInternals, "unknownCheckingProxy">;
const { secretsPreservingProxy } = fromPolicy("./secret") as Pick<PolicyInternals, "secretsPreservingProxy">;

const urnOf = ({ type, name }: FakeResource) => `urn:pulumi:dev::fleet::${type}::${name}`;

function argsOf(fake: FakeResource, config: object, path: "validate" | "remediate"): ResourceValidationArgs {
  const copy = structuredClone(fake.props);
  const props =
    path === "validate" ? unknownCheckingProxy(copy) : unknownCheckingProxy(secretsPreservingProxy(copy));
  return {
    type: fake.type,
    name: fake.name,
    urn: urnOf(fake),
    props,
    opts: { protect: false, ignoreChanges: [], aliases: [], additionalSecretOutputs: [] },
    stackTags: new Map(),
    getConfig: <T extends object>() => config as T,
    isType: () => false,
    asType: () => undefined,
    notApplicable: (reason?: string) => {
      throw new Error(`not applicable: ${reason ?? ""}`);
    },
  } as unknown as ResourceValidationArgs;
}

/** The violations `policy` reports for `fake` with `config`. */
export async function violations(policy: ResourceValidationPolicy, fake: FakeResource, config: object = {}) {
  const found: string[] = [];
  const validations = [policy.validateResource ?? []].flat();
  for (const validate of validations)
    await validate(argsOf(fake, config, "validate"), (message) => found.push(message));
  return found;
}

/** What `policy`'s remediation returns for `fake` with `config` (undefined: nothing to change). */
export async function remediation(policy: ResourceValidationPolicy, fake: FakeResource, config: object = {}) {
  return (await policy.remediateResource?.(argsOf(fake, config, "remediate"))) ?? undefined;
}

/** The violations (message and URN) a stack policy reports over `resources`. */
export async function stackViolations(policy: StackValidationPolicy, resources: readonly FakeResource[]) {
  const found: { message: string; urn?: string }[] = [];
  const policyResources = resources.map(
    (fake) =>
      ({
        type: fake.type,
        name: fake.name,
        urn: urnOf(fake),
        props: unknownCheckingProxy(structuredClone(fake.props)),
      }) as unknown as PolicyResource,
  );
  await policy.validateStack(
    {
      resources: policyResources,
      stackTags: new Map(),
      getConfig: <T extends object>() => ({}) as T,
      notApplicable: () => {
        throw new Error("not applicable");
      },
    },
    (message, urn) => found.push(urn === undefined ? { message } : { message, urn }),
  );
  return found;
}
