/**
 * The Node.js version the SDK needs, checked as soon as the SDK is loaded: `sdk/index.ts` imports
 * this module before anything else.
 *
 * Why at load time: the SDK keeps 64-bit ids exact through `JSON.parse`'s source-text access
 * (Node.js 22). On an older Node.js nothing fails until the first response arrives, and then with a
 * misleading message ("the response is not JSON"); failing at once names the real cause.
 */

/** The oldest Node.js major version the SDK runs on (package.json `engines`: `>=22`). */
export const MINIMUM_NODE_MAJOR = 22;

/**
 * Throws an `Error` naming the required and the running version unless `version` (by default the
 * running Node.js, e.g. `"22.11.0"`) is at least {@link MINIMUM_NODE_MAJOR}. Pure apart from the
 * default argument, so that tests can pass any version.
 */
export function assertSupportedNode(version: string = process.versions.node): void {
  const major = Number.parseInt(version.replace(/^v/, "").split(".")[0] ?? "", 10);
  if (Number.isInteger(major) && major >= MINIMUM_NODE_MAJOR) return;
  throw new Error(
    `pulumi-devplatform needs Node.js ${MINIMUM_NODE_MAJOR} or later, but this is Node.js ${version}: ` +
      `it reads 64-bit ids exactly through JSON.parse source-text access, which older versions lack. ` +
      `Run it with Node.js ${MINIMUM_NODE_MAJOR} LTS or later.`,
  );
}

assertSupportedNode();
