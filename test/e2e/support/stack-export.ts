/** What `pulumi stack export` answers, as the e2e tests read it, and the check of a command's exit. */

export interface StackResource {
  urn: string;
  type: string;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

export interface StackExport {
  deployment: { resources?: StackResource[] };
}

/** Throws with the CLI's output when a command failed, so a test failure shows why. */
export function assertOk<T extends { exitCode: number; output: string }>(result: T): T {
  if (result.exitCode !== 0) throw new Error(`pulumi exited with ${result.exitCode}:\n${result.output}`);
  return result;
}

/** The resources of one type token in an exported stack. */
export function resourcesOfType(stack: StackExport, type: string): StackResource[] {
  return (stack.deployment.resources ?? []).filter((r) => r.type === type);
}
