const VERSION_PREFIX = /^\/device\/openapi\/[^/]+/;
const keys = new Map<string, string>();

/**
 * The counter key of a route: method and pattern with the `/device/openapi/{version}` prefix
 * stripped and `:param` written `{param}`, e.g. `GET /devices/{deviceId}` for all three versions.
 */
export function routeKeyOf(method: string, pattern: string): string {
  const cacheKey = `${method} ${pattern}`;
  let key = keys.get(cacheKey);
  if (key === undefined) {
    key = `${method} ${pattern.replace(VERSION_PREFIX, "").replace(/:(\w+)/g, "{$1}")}`;
    keys.set(cacheKey, key);
  }
  return key;
}

/** Whether a route pattern belongs to the control API (never counted, faulted or authenticated). */
export function isControlRoute(pattern: string): boolean {
  return pattern.startsWith("/__emulator");
}
