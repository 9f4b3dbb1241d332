/**
 * Who the harness's stacks are, and what people do to stacks (issue #43): the main stack renamed
 * (`pulumi stack rename`) or given another `devplatform:ownerTag` prefix, the second stack removed
 * with `pulumi stack rm --force` and its devices taken over by a new stack after `devplatform
 * export --take-over`, a namesake of the main stack on a second backend, and `pulumi import` of a
 * device the second stack manages into the main stack. Pure: the model replays them (stack-runs.ts
 * runs them on the CLI).
 */
import { cloneWorld, declaredDevices, type World } from "./world";

/** What is done to a stack in a step, before the step's `up` (stack-runs.ts). */
export const STACK_ACTIONS = ["rename", "owner-tag", "namesake", "import", "rm-takeover"] as const;
export type StackAction = (typeof STACK_ACTIONS)[number];

/** The owner tag's default prefix, and the other one the main stack switches to and back from. */
export const DEFAULT_PREFIX = "pulumi-stack:";
export const OTHER_PREFIX = "team-main:";

/** The projects of the harness's stacks (also the namesake's project: the main stack's). */
export const MAIN_PROJECT = "harness-main";
export const SECOND_PROJECT = "harness-second";

/** The stacks' names now and the main stack's owner-tag prefix. */
export interface StackNames {
  /** The main stack's name (`dev` until renamed). */
  main: string;
  /** The second stack's name (`dev` until removed and replaced). */
  second: string;
  /** The main stack's `devplatform:ownerTag` (the default unless changed). */
  mainPrefix: string;
}

export const INITIAL_NAMES: StackNames = { main: "dev", second: "dev", mainPrefix: DEFAULT_PREFIX };

/** `<project>/<stack>` of each stack, main first (the order of the worlds the invariants check). */
export function stackPaths(names: StackNames): [string, string] {
  return [`${MAIN_PROJECT}/${names.main}`, `${SECOND_PROJECT}/${names.second}`];
}

/**
 * The names and worlds after `action` at step `index`, from those before it (`main` already has the
 * step's change), or undefined when the action does not apply: nothing to import or take over, no
 * device for a namesake to declare.
 */
export function applyStackAction(
  action: StackAction,
  index: number,
  names: StackNames,
  main: World,
  second: World,
): { names: StackNames; second: World } | undefined {
  const secondDevices = second.fleets[0]?.devices.length ?? 0;
  switch (action) {
    case "rename":
      return { names: { ...names, main: `renamed-${index}` }, second };
    case "owner-tag":
      return {
        names: { ...names, mainPrefix: names.mainPrefix === DEFAULT_PREFIX ? OTHER_PREFIX : DEFAULT_PREFIX },
        second,
      };
    case "namesake":
      return declaredDevices(main).length > 0 ? { names, second } : undefined;
    case "import":
      return secondDevices > 0 ? { names, second } : undefined;
    case "rm-takeover": {
      if (secondDevices === 0) return undefined;
      // The new stack's fleet takes over every device of the removed stack at once, by its name.
      const next = cloneWorld(second);
      const fleet = next.fleets[0];
      if (fleet) fleet.takeOverFrom = [`${SECOND_PROJECT}/${names.second}`];
      return { names: { ...names, second: `new-${index}` }, second: next };
    }
  }
}
