/**
 * What a user would otherwise write: a loop adding devices one by one through the client.
 */
import { DevicePlatformClient } from "../sdk";

/**
 * Adds `count` devices sequentially and returns a function that removes them again, so that the
 * removal is not part of what is timed.
 */
export async function naiveSequentialAdd(
  baseUrl: string,
  count: number,
  snPrefix: string,
): Promise<() => Promise<void>> {
  const client = new DevicePlatformClient({ baseUrl, clientId: "demo-client", clientSecret: "demo-secret" });
  const ids: string[] = [];
  const remove = async () => {
    await Promise.all(ids.map((id) => client.deleteDevice(id)));
    await client.close();
  };
  try {
    for (let i = 0; i < count; i++) {
      const sn = snPrefix + i.toString(16).toUpperCase().padStart(8, "0");
      ids.push((await client.addDevice({ snDevEUI: sn, name: `naive-${i}`, tag: ["bench"] })).deviceId);
    }
  } catch (error) {
    await remove();
    throw error;
  }
  return remove;
}
