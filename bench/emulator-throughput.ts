/**
 * The emulator's own throughput for Query a Specific Device, so it is known not to be what the
 * other figures measure.
 */
import autocannon from "autocannon";
import { DevicePlatformClient } from "../sdk";

export async function measureEmulatorThroughput(baseUrl: string): Promise<number> {
  const client = new DevicePlatformClient({ baseUrl, clientId: "demo-client", clientSecret: "demo-secret" });
  const { deviceId } = await client.addDevice({ snDevEUI: "24BEEF000001", name: "throughput" });
  const token = await tokenFor(baseUrl);
  try {
    const result = await autocannon({
      url: `${baseUrl}/device/openapi/v1/devices/${deviceId}`,
      connections: 50,
      duration: 5,
      headers: { authorization: `Bearer ${token}` },
    });
    return Math.round(result.requests.average);
  } finally {
    await client.deleteDevice(deviceId);
    await client.close();
  }
}

async function tokenFor(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_id: "demo-client",
      client_secret: "demo-secret",
    }),
  });
  const body = (await response.json()) as { data?: { access_token?: string }; access_token?: string };
  const token = body.data?.access_token ?? body.access_token;
  if (!token) throw new Error("the emulator issued no token");
  return token;
}
