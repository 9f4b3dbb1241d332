/**
 * The provider's own configuration: CheckConfig, DiffConfig and Configure. The default provider
 * and every explicit provider instance (`new pulumi.ProviderResource("devplatform", …)`) send their
 * inputs here; each plugin process serves one provider, so the settings are per process. The rules
 * are the dynamic front-end's (`provider/platform-access/settings.ts`): one rule set, two front-ends.
 */
import { isUnknown, type Inputs } from "../../shared/input-checks";
import { configureRuntimeWith } from "../../platform-access/platform-client";
import {
  checkSettings,
  configKeyName,
  missingSettingsMessage,
  resolveNamedSettings,
  SETTING_KEYS,
  type ProviderSettings,
  type SettingName,
} from "../../platform-access/settings";
import { fromStruct, toStruct } from "./properties";
import { urnParts } from "./kinds";
import { providerPb, type ProviderPb } from "./rpc";

/** Inputs of a provider that are the engine's, not configuration. */
const ENGINE_KEYS = ["version", "pluginDownloadURL"];

/** A default provider's URN name (`default`, `default_0_1_0`): its inputs are stack config. */
function isDefaultProvider(urn: string | undefined): boolean {
  return urn === undefined || urn === "" || /^default(_|$)/.test(urnParts(urn).name);
}

/** How the user names a key: `devplatform:baseUrl` (stack config) or an explicit provider's input. */
function keyNames(urn: string | undefined): SettingName {
  if (isDefaultProvider(urn)) return configKeyName;
  const provider = urnParts(urn as string).name;
  return (key) => `${key} (of provider ${provider})`;
}

/** A configuration value as the settings rules read it: text, whether given as text or not. */
function textOf(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** CheckConfig: every problem as a failure on its key; the inputs with `clientSecret` secret. */
export async function checkConfig(request: ProviderPb.CheckRequest): Promise<ProviderPb.CheckResponse> {
  const news = fromStruct(request.getNews());
  const values = news.values;
  const result = checkSettings((key) => textOf(values[key]), keyNames(request.getUrn()));
  const failures: { property: string; reason: string }[] = [];
  for (const problem of result.problems) {
    // A value still unknown (computed by another resource) is checked once it is known.
    if (isUnknown(values[problem.key])) continue;
    const reason = problem.missing ? missingSettingsMessage([problem]) : problem.message;
    failures.push({ property: problem.key, reason });
  }
  for (const key of Object.keys(values)) {
    if (ENGINE_KEYS.includes(key) || (SETTING_KEYS as readonly string[]).includes(key)) continue;
    failures.push({
      property: key,
      reason: `${keyNames(request.getUrn())(key as keyof ProviderSettings)} is not a setting of the device platform provider; expected one of: ${SETTING_KEYS.join(", ")}`,
    });
  }
  const response = new providerPb.CheckResponse();
  response.setInputs(toStruct(values, news.secrets));
  response.setFailuresList(
    failures.map(({ property, reason }) => {
      const failure = new providerPb.CheckFailure();
      failure.setProperty(property);
      failure.setReason(reason);
      return failure;
    }),
  );
  return response;
}

/**
 * DiffConfig: the changed settings, each an in-place update, never a replacement. A new `baseUrl`
 * or `clientId` may point at another application; replacing the provider would replace every
 * resource — create in the new application, then delete in the old — and the two provider
 * processes cannot share the record that keeps a delete off a device another resource just adopted.
 * Updating in place deletes nothing: the next refresh drops what the new application does not have
 * (the platform says so for each id), and the next `up` creates it there.
 */
export async function diffConfig(request: ProviderPb.DiffRequest): Promise<ProviderPb.DiffResponse> {
  const olds = fromStruct(request.getOlds()).values;
  const news = fromStruct(request.getNews()).values;
  const changed = SETTING_KEYS.filter((key) => textOf(olds[key]) !== textOf(news[key]));
  const response = new providerPb.DiffResponse();
  response.setChanges(
    changed.length > 0
      ? providerPb.DiffResponse.DiffChanges.DIFF_SOME
      : providerPb.DiffResponse.DiffChanges.DIFF_NONE,
  );
  response.setDiffsList(changed);
  response.setHasdetaileddiff(true);
  for (const key of changed) {
    const diff = new providerPb.PropertyDiff();
    diff.setKind(
      olds[key] === undefined
        ? providerPb.PropertyDiff.Kind.ADD
        : news[key] === undefined
          ? providerPb.PropertyDiff.Kind.DELETE
          : providerPb.PropertyDiff.Kind.UPDATE,
    );
    diff.setInputdiff(true);
    response.getDetaileddiffMap().set(key, diff);
  }
  return response;
}

/** The provider's settings from a Configure request: its inputs, then the legacy variables, then the environment. */
export function settingsOfRequest(request: ProviderPb.ConfigureRequest): ProviderSettings {
  const args: Inputs = fromStruct(request.getArgs()).values;
  const variables = request.getVariablesMap();
  return resolveNamedSettings(
    (key) => textOf(args[key]) ?? variables.get(`devplatform:config:${key}`) ?? undefined,
    keyNames(request.getUrn()),
  );
}

/** Configure: records the settings for this process (a problem surfaces at the first check). */
export async function configure(request: ProviderPb.ConfigureRequest): Promise<ProviderPb.ConfigureResponse> {
  configureRuntimeWith(() => settingsOfRequest(request));
  const response = new providerPb.ConfigureResponse();
  response.setAcceptsecrets(true);
  response.setSupportspreview(true);
  response.setAcceptresources(false);
  response.setAcceptoutputs(false);
  return response;
}
