/**
 * Programs on the provider plugin (`devplatform:index:*` through `pulumi-resource-devplatform`),
 * written as a TypeScript user without a generated SDK writes them: `pulumi.CustomResource` with the
 * type token, and `pulumi.ProviderResource("devplatform", …)` for explicit provider instances (both
 * abstract in the SDK's types, hence the one-line subclasses).
 */
import path from "node:path";

import { createProject } from "./e2e-project";
import type { ProjectOptions, PulumiProject } from "./pulumi-project";
import { e2e } from "./e2e-context";

/** The launcher's directory in the installed (packed) package: what users name in Pulumi.yaml. */
export function installedPluginDir(): string {
  return path.join(e2e().nodeModules, "pulumi-devplatform", "bin");
}

/** A project whose Pulumi.yaml names the installed plugin. */
export function createPluginProject(options: Omit<ProjectOptions, "pluginPath">): Promise<PulumiProject> {
  return createProject({ ...options, pluginPath: installedPluginDir() });
}

/** One resource of a plugin program. */
export interface PluginResource {
  /** `Device`, `DeviceFleet`, `RpsProfile` or `DeviceConfig`. */
  kind: string;
  name: string;
  props: Record<string, unknown>;
  /** Outputs to export as `<name>.<output>` (each declared as an undefined input to read it). */
  outputs?: string[];
  /** Source of the resource options, e.g. `{ provider: a }`. */
  opts?: string;
  /**
   * Source of inputs computed from earlier resources (`r0`, `r1`, … in declaration order), e.g.
   * `{ deviceIds: r0.deviceId }`, spread over `props`.
   */
  computed?: string;
}

/** Explicit provider instances: variable name → its inputs as source (e.g. `{ baseUrl: "…" }`). */
export type PluginProviders = Record<string, string>;

/**
 * The first lines of a program declaring the plugin's resources without a generated SDK: `pulumi`,
 * and the classes `Resource` (type, name, props, opts) and `Provider` (name, props) of this package.
 */
export const PLUGIN_PRELUDE: readonly string[] = [
  `import * as pulumi from "@pulumi/pulumi";`,
  // CustomResource is abstract in the SDK's types: a program without a generated SDK subclasses it.
  `class Resource extends pulumi.CustomResource {`,
  `  constructor(type: string, name: string, props: pulumi.Inputs, opts?: pulumi.CustomResourceOptions) {`,
  `    super(type, name, props, opts);`,
  `  }`,
  `}`,
  `class Provider extends pulumi.ProviderResource {`,
  `  constructor(name: string, props: pulumi.Inputs) {`,
  `    super("devplatform", name, props);`,
  `  }`,
  `}`,
];

/** A program declaring `resources` (and explicit `providers`), exporting their ids and `outputs`. */
export function pluginProgram(resources: PluginResource[], providers: PluginProviders = {}): string {
  const lines = [
    ...PLUGIN_PRELUDE,
    `export const ids: Record<string, pulumi.Output<string>> = {};`,
    `export const outputs: Record<string, pulumi.Output<unknown>> = {};`,
  ];
  for (const [variable, inputs] of Object.entries(providers)) {
    lines.push(`const ${variable} = new Provider(${JSON.stringify(variable)}, ${inputs});`);
  }
  resources.forEach((resource, index) => {
    // An output is read through an input of its name left undefined (JSON would drop it: written out).
    const outputs = (resource.outputs ?? []).map((name) => `${JSON.stringify(name)}: undefined`);
    const parts = [...outputs, `...${JSON.stringify(resource.props)}`];
    if (resource.computed !== undefined) parts.push(`...${resource.computed}`);
    const props = `{ ${parts.join(", ")} }`;
    lines.push(
      `const r${index}: Record<string, any> = new Resource("devplatform:index:${resource.kind}", ${JSON.stringify(resource.name)}, ${props}, ${resource.opts ?? "{}"});`,
      `ids[${JSON.stringify(resource.name)}] = r${index}.id;`,
    );
    for (const output of resource.outputs ?? []) {
      lines.push(
        `outputs[${JSON.stringify(`${resource.name}.${output}`)}] = (r${index} as unknown as Record<string, pulumi.Output<unknown>>)[${JSON.stringify(output)}];`,
      );
    }
  });
  return lines.join("\n") + "\n";
}
