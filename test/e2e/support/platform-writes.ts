/**
 * The writes among an emulator's request counts: what changed something on the platform, as
 * opposed to reads, searches and token requests.
 */

/** The routes of `byRoute` that write (POST, PUT, PATCH, DELETE but searches and the token), with their counts. */
export function writesOf(byRoute: Readonly<Record<string, number>>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(byRoute).filter(
      ([route]) =>
        /^(POST|PUT|PATCH|DELETE) /.test(route) && !route.endsWith("/search") && !route.includes("oauth"),
    ),
  );
}
