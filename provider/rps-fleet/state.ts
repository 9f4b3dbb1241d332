/**
 * What a batch has applied: serial number (as declared) → profile URL, kept without regard to case,
 * and its recorded form — the outputs `profileUrls`, the batch's name and its settings. A run
 * changes it one record at a time, so that a run stopped part way records exactly what was done.
 */
import { definedInputs, type Inputs } from "../shared/input-checks";
import { isPlainObject } from "../../sdk/plain-object";
import { bySerial } from "../shared/serial-numbers";
import { SETTING_INPUTS, type RpsEntries } from "./inputs";

/** The records a batch manages on the platform. */
export class RpsLedger {
  /** Upper-case serial number → the spelling recorded and the URL. */
  private readonly records = new Map<string, { sn: string; profileUrl: string }>();

  /** The ledger of a recorded state (its `profileUrls`). */
  static fromOutputs(state: Inputs): RpsLedger {
    const ledger = new RpsLedger();
    if (isPlainObject(state.profileUrls)) {
      for (const [sn, url] of Object.entries(state.profileUrls)) {
        if (typeof url === "string") ledger.set(sn, url);
      }
    }
    return ledger;
  }

  get size(): number {
    return this.records.size;
  }

  /** Records `sn` (any case: the new spelling replaces the old) with its URL. */
  set(sn: string, profileUrl: string): void {
    this.records.set(sn.toUpperCase(), { sn, profileUrl });
  }

  forget(sn: string): void {
    this.records.delete(sn.toUpperCase());
  }

  urlOf(sn: string): string | undefined {
    return this.records.get(sn.toUpperCase())?.profileUrl;
  }

  /** The serial numbers as recorded, in serial order. */
  serials(): string[] {
    return this.inOrder().map((record) => record.sn);
  }

  /** Serial number (as recorded) → URL, in serial order (see bySerial). */
  entries(): RpsEntries {
    return Object.fromEntries(this.inOrder().map(({ sn, profileUrl }) => [sn, profileUrl]));
  }

  private inOrder(): { sn: string; profileUrl: string }[] {
    return [...this.records.values()].sort((a, b) => bySerial(a.sn, b.sn));
  }

  /** The state: `fleetName`, `profileUrls` and the settings of `settings`. */
  toOutputs(fleetName: string, settings: Inputs): Inputs {
    return definedInputs({
      fleetName,
      ...Object.fromEntries(SETTING_INPUTS.map((name) => [name, settings[name]])),
      profileUrls: this.entries(),
    });
  }
}
