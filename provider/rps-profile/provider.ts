/**
 * The RpsProfile implementation behind the serialized provider.
 */
import type * as pulumi from "@pulumi/pulumi";
import { ConflictError, NotFoundError } from "../../sdk";
import { describeFailure, ResourceOperationError } from "../shared/errors";
import { InputChecker, SERIAL_NUMBER } from "../shared/input-checks";
import { invalidateRpsListing, rpsProfileUrl } from "./listing";
import { platformClient } from "../runtime/platform-client";

const INPUTS = ["sn", "profileUrl"] as const;

async function specify(sn: string, profileUrl: string): Promise<void> {
  const client = await platformClient();
  invalidateRpsListing();
  try {
    await client.setRpsProfile({ sn, profileUrl });
  } catch (error) {
    if (error instanceof ConflictError && error.errCode === "device_on_platform") {
      throw new ResourceOperationError(
        `create RpsProfile sn=${sn} failed: the device is already on the platform, and RPS profiles can only be ` +
          `given to devices that are not; remove the Device first, or drop this RpsProfile (${error.message})`,
        { cause: error, code: error.code },
      );
    }
    throw error;
  }
}

export const rpsProfileImplementation: Omit<Required<pulumi.dynamic.ResourceProvider>, "configure"> = {
  async check(_olds, news) {
    const failures = new InputChecker(news, "RpsProfile")
      .knownProperties(INPUTS)
      .string("sn", { required: true, pattern: SERIAL_NUMBER, patternRule: "must be 12 to 16 hex digits" })
      .httpsUrl("profileUrl", { required: true }).failures;
    return { inputs: news, failures };
  },

  async diff(_id, olds, news) {
    const replaces = olds.sn !== news.sn ? ["sn"] : [];
    const changes = replaces.length > 0 || olds.profileUrl !== news.profileUrl;
    return { changes, replaces, deleteBeforeReplace: false };
  },

  async create(inputs) {
    const { sn, profileUrl } = inputs as { sn: string; profileUrl: string };
    await describeFailure(`create RpsProfile sn=${sn}`, () => specify(sn, profileUrl));
    return { id: sn, outs: { sn, profileUrl } };
  },

  async read(id, props) {
    return describeFailure(`read RpsProfile sn=${id}`, async () => {
      const profileUrl = await rpsProfileUrl(await platformClient(), id);
      if (profileUrl === undefined) return { id: "", props: {} };
      const state = { sn: id, profileUrl };
      return { id, props: { ...props, ...state }, inputs: state };
    });
  },

  async update(id, _olds, news) {
    const profileUrl = news.profileUrl as string;
    // Specifying the URL again for the same serial number replaces it.
    await describeFailure(`update RpsProfile sn=${id}`, () => specify(id, profileUrl));
    return { outs: { sn: id, profileUrl } };
  },

  async delete(id) {
    await describeFailure(`delete RpsProfile sn=${id}`, async () => {
      const client = await platformClient();
      invalidateRpsListing();
      try {
        await client.deleteRpsProfile(id);
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error;
      }
    });
  },
};
