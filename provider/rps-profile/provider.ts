/**
 * The RpsProfile implementation behind the serialized provider. A record already there is adopted:
 * as it is when its URL is the declared one (no write), taken over with a warning otherwise. A
 * delete never removes a record another RpsProfile of the deployment declares or took (a rename
 * without an alias), and a refresh drops a record only when the platform's answer says it has none.
 */
import { ConflictError, NotFoundError } from "../../sdk";
import { declarationsSettled } from "../guardrails/ownership";
import { platformClient } from "../platform-access/platform-client";
import {
  batchesDeclaring,
  claimRpsRecord,
  declareRpsRecord,
  rpsRecordOwner,
} from "../guardrails/rps-ownership";
import { catchUpWithOthers } from "../deployment/shared-record";
import { describeFailure, ResourceOperationError } from "../shared/errors";
import { requestCount } from "../shared/quota";
import { InputChecker, SERIAL_NUMBER } from "../shared/input-checks";
import { invalidateRpsListing, rpsRecordOf } from "./listing";
import type { KindDefinition } from "../core/kind";
import { rpsProfileDiff } from "./diff";
import { importRpsProfile, rpsProfileInputsOf } from "./import";
import { rpsProfileResourceSpec } from "./schema";
import { lookUpRpsRecord } from "./record-lookup";
import { log } from "../output/log";

const INPUTS = ["sn", "profileUrl"] as const;

async function specify(operation: string, sn: string, profileUrl: string): Promise<void> {
  const client = await platformClient();
  invalidateRpsListing();
  try {
    await client.setRpsProfile({ sn, profileUrl });
  } catch (error) {
    if (error instanceof ConflictError && error.errCode === "device_on_platform") {
      throw new ResourceOperationError(
        `${operation} failed: the device is already on the platform, and RPS profiles can only be ` +
          `given to devices that are not; remove the Device first, or drop this RpsProfile (${error.message})`,
        { cause: error, code: error.code },
      );
    }
    throw error;
  }
}

/** Specifies the record unless the platform already has it with this URL; warns when it had another. */
async function adoptOrSpecify(sn: string, profileUrl: string): Promise<void> {
  const operation = `create RpsProfile sn=${sn}`;
  const existing = await rpsRecordOf(await platformClient(), sn);
  if (existing?.profileUrl === profileUrl) return;
  await specify(operation, sn, profileUrl);
  if (existing) {
    await log.warn(
      `RpsProfile sn=${sn}: took over the existing RPS record, replacing its profileUrl ${existing.profileUrl}`,
    );
  }
}

/** The RpsProfile kind: what both front-ends call. */
export const rpsProfileImplementation: KindDefinition = {
  spec: rpsProfileResourceSpec,
  importRead: (id) => importRpsProfile(id),
  inputsOf: rpsProfileInputsOf,

  async check(_olds, news) {
    const failures = new InputChecker(news, "RpsProfile")
      .knownProperties(INPUTS)
      .string("sn", { required: true, pattern: SERIAL_NUMBER, patternRule: "must be 12 to 16 hex digits" })
      .httpsUrl("profileUrl", { required: true }).failures;
    if (failures.length > 0) return { inputs: news, failures };
    const sn = news.sn as string;
    declareRpsRecord(sn);
    // One record, one owner: a batch (RpsFleet) of this deployment that declares it too.
    await catchUpWithOthers();
    const batches = batchesDeclaring(sn);
    if (batches.length > 0) {
      failures.push({
        property: "sn",
        reason:
          `RpsProfile.sn ${sn} is declared by this RpsProfile and by ${batches.map((b) => `RpsFleet "${b}"`).join(" and ")}: ` +
          "an RPS record can be declared by one resource of a deployment only; remove it from all but one",
      });
    }
    return { inputs: news, failures };
  },

  async diff(_id, olds, news) {
    return rpsProfileDiff(olds, news);
  },

  async create(inputs) {
    const { sn, profileUrl } = inputs as { sn: string; profileUrl: string };
    await describeFailure(
      `create RpsProfile sn=${sn}`,
      () => adoptOrSpecify(sn, profileUrl),
      () => `${requestCount(1)} (Specify the Profile URL, after the RPS listing: 1 request per 100 records)`,
    );
    claimRpsRecord(sn);
    return { id: sn, outs: { sn, profileUrl } };
  },

  async read(id, props) {
    return describeFailure(`read RpsProfile sn=${id}`, async () => {
      const declared = typeof props.sn === "string" ? props.sn : id;
      const lookup = await lookUpRpsRecord(await platformClient(), id);
      if (lookup.state === "gone") return { id: "", props: {} };
      if (lookup.state === "unknown") {
        await log.warn(
          `RpsProfile sn=${id}: the application's listing of RPS records did not return this record, and no ` +
            "answer of the platform shows it gone (the listing shifted while it was read); it is kept in " +
            "the stack as it was — run `pulumi refresh` again to check",
        );
        const kept = { sn: declared, profileUrl: props.profileUrl };
        return { id, props, inputs: kept };
      }
      const state = { sn: declared, profileUrl: lookup.record.profileUrl };
      return { id, props: { ...props, ...state }, inputs: state };
    });
  },

  async update(id, _olds, news) {
    const profileUrl = news.profileUrl as string;
    // Specifying the URL again for the same serial number replaces it.
    const operation = `update RpsProfile sn=${id}`;
    await describeFailure(
      operation,
      () => specify(operation, id, profileUrl),
      () => `${requestCount(1)} (Specify the Profile URL)`,
    );
    return { outs: { sn: news.sn, profileUrl } };
  },

  async delete(id, props) {
    await describeFailure(
      `delete RpsProfile sn=${id}`,
      async () => {
        // The configuration first: it names the application whose one-owner record is read.
        const client = await platformClient();
        // A delete may run while the engine still checks resources: wait for their declarations.
        await declarationsSettled();
        const owner = rpsRecordOwner(id);
        if (owner) {
          await log.warn(
            `RpsProfile sn=${id}: not deleting the RPS record of ${id}, which another RpsProfile resource of ` +
              `this deployment ${owner === "took" ? "created or adopted" : "declares"} and now manages ` +
              `(a rename without an alias); it stays on the platform (profileUrl ${String(props.profileUrl)})`,
          );
          return;
        }
        invalidateRpsListing();
        try {
          await client.deleteRpsProfile(id);
        } catch (error) {
          if (!(error instanceof NotFoundError)) throw error;
        }
      },
      () => `${requestCount(1)} (Delete RPS Record)`,
    );
  },
};
