/**
 * A provider process that starts requests on the machine's pace and is killed before they end: it
 * counts `PACE_HOLDER_COUNT` requests in flight on the pace of `PACE_HOLDER_CLIENT` (under the
 * inherited DEVPLATFORM_PACE_DIR), prints `held`, and waits to be killed.
 */
import { machinePaceStore } from "../../../../provider/platform-access/pace-store";

const count = Number(process.env.PACE_HOLDER_COUNT ?? "1");
machinePaceStore(process.env.PACE_HOLDER_CLIENT ?? "client").transact((state) => {
  state.inFlight += count;
});
process.stdout.write("held\n");
setInterval(() => undefined, 60_000);
