/**
 * The mark a program leaves in its deployment's record when it declares a dynamic resource of this
 * package: what tells Pulumi's dynamic provider host apart as one of this package's providers.
 *
 * The engine starts one dynamic provider host (`pulumi-resource-pulumi-nodejs`) for every dynamic
 * resource of a deployment, whichever package it comes from: a plugin program with a
 * `pulumi.dynamic.Resource` of its own gets one too. That host only becomes this package's provider
 * when the engine hands it one of this package's resources, and nothing in its arguments says
 * whether it will. The program knows: it constructs the resource (here, in the program's process,
 * before it registers the resource — so before the engine starts the host for it). A delete waits
 * for a starting dynamic host (starting-providers.ts) only when its deployment carries this mark.
 *
 * The program's process finds its engine where Pulumi's Node.js runtime puts it
 * (`PULUMI_NODEJS_ENGINE`); a program run without one (unit tests with mocks) marks nothing. A mark
 * that cannot be written is left unwritten without a word: it goes in the record the deployment's
 * provider processes open themselves, and they fail every check and delete, naming the path and
 * the reason, when it cannot be opened (the program's stack trace would only hide that message).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import {
  deploymentAt,
  deploymentDirectory,
  openDeploymentDirectory,
  type Deployment,
} from "./shared-record-paths";

/** The mark's file name in the deployment's directory (not a writer's `.jsonl`). */
export const DYNAMIC_MARK = "dynamic-resources";

/** The engine addresses this process has marked (once each). */
const marked = new Set<string>();

/**
 * Marks the deployment of the engine running this program (from the program's process, when it
 * constructs a dynamic resource of this package).
 */
export function markDynamicResources(engineAddress = process.env.PULUMI_NODEJS_ENGINE): void {
  if (engineAddress === undefined || engineAddress === "" || marked.has(engineAddress)) return;
  marked.add(engineAddress);
  try {
    const directory = openDeploymentDirectory(deploymentAt(engineAddress));
    fs.writeFileSync(path.join(directory, DYNAMIC_MARK), "", { flag: "a", mode: 0o600 });
  } catch {
    // The provider processes fail on this record themselves, saying why (see above).
  }
}

/** Whether the program of `deployment` declared a dynamic resource of this package. */
export function dynamicResourcesMarked(deployment: Deployment): boolean {
  return fs.existsSync(path.join(deploymentDirectory(deployment), DYNAMIC_MARK));
}
