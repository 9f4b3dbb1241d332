/**
 * `devplatform:index:getRpsProfiles`: the application's RPS records (Query Profile URL List, every
 * page, in the order `sorts` asks for), optionally only the one of a serial number.
 */
import { sameSerial } from "../shared/serial-numbers";
import { platformClient } from "../platform-access/platform-client";
import { describeFailure } from "../shared/errors";
import { SERIAL_NUMBER, type Inputs } from "../shared/input-checks";
import { list, map, ref, string } from "../core/schema-spec";
import { ArgumentChecker } from "./arguments";
import type { PackageFunction } from "./package-function";
import { withExamples } from "../core/schema-examples";
import { GET_RPS_PROFILES_EXAMPLES } from "./examples";

const NAME = "getRpsProfiles";

/** The getRpsProfiles function. */
export const getRpsProfiles: PackageFunction = {
  spec: {
    description: withExamples(
      "The application's RPS records (Query Profile URL List, all pages: the platform's search takes only paging " +
        "and sort orders), or only the record of one serial number.",
      GET_RPS_PROFILES_EXAMPLES,
    ),
    inputs: {
      properties: {
        sn: string(
          "Only the record of this serial number (12–16 hex digits, compared without regard to case; the provider " +
            "filters the listing).",
        ),
        sorts: list(
          ref("SearchSort"),
          'Sort orders of the listing, e.g. `[{ property: "sn", direction: "asc" }]`.',
        ),
      },
    },
    outputs: {
      properties: {
        profiles: list(ref("RpsRecord"), "The records, in the listing's order."),
        profileUrls: map(string("A profile URL."), "Serial number → profile URL of the records."),
      },
      required: ["profiles", "profileUrls"],
    },
  },
  types: {
    objects: {
      RpsRecord: {
        type: "object",
        description: "An RPS record: a serial number and its profile URL.",
        properties: { sn: string("The serial number."), profileUrl: string("The profile URL.") },
        required: ["sn", "profileUrl"],
      },
    },
  },

  async invoke(args: Inputs) {
    new ArgumentChecker(NAME, args, ["sn", "sorts"])
      .string("sn", { pattern: SERIAL_NUMBER, patternRule: "must be 12 to 16 hex digits" })
      .sorts("sorts")
      .done();
    const sn = typeof args.sn === "string" ? args.sn : undefined;
    const sorts = Array.isArray(args.sorts)
      ? (args.sorts as { property: string; direction: "asc" | "desc" }[])
      : undefined;
    return describeFailure(NAME, async () => {
      const client = await platformClient();
      const profiles: { sn: string; profileUrl: string }[] = [];
      for await (const record of client.listRpsProfiles(sorts)) {
        if (sn === undefined || sameSerial(record.sn, sn))
          profiles.push({ sn: record.sn, profileUrl: record.profileUrl });
      }
      return { profiles, profileUrls: Object.fromEntries(profiles.map((p) => [p.sn, p.profileUrl])) };
    });
  },
};
