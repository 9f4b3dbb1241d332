/**
 * What every kind's check does first, whichever front-end calls it: notes that the engine ran the
 * program (the one-owner record tells `up`/`preview` from `destroy`, which checks nothing), and
 * reports bad configuration at preview, before any request, as one failure naming the key.
 */
import { redactText } from "../../sdk/redact";
import type { KindDefinition } from "../core/kind";
import { noteProgramRan } from "./ownership";
import { configurationProblem } from "../platform-access/platform-client";

/** `definition` with its check preceded by the configuration's. */
export function checkingConfigurationFirst(definition: KindDefinition): KindDefinition {
  return {
    ...definition,
    async check(olds, news) {
      // The engine checks resources only when it runs the program (`up`, `preview`), never in
      // `destroy`: the one-owner record keeps that apart (see programRan).
      noteProgramRan();
      // Bad configuration fails here, at preview, before any request: one failure naming the key.
      const problem = await configurationProblem();
      // Printed and recorded by the engine: redacted whole, as every text the package lets out.
      if (problem !== undefined)
        return { inputs: news, failures: [{ property: "", reason: redactText(problem) }] };
      return definition.check(olds, news);
    },
  };
}
