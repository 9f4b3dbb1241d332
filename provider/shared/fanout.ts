/**
 * Bounded fan-out for per-device work (TSL models, configuration reads, a fleet's writes): a DeviceConfig may name
 * 1,200 devices, and starting 1,200 requests at once would queue them all inside the shared client
 * ahead of every other resource's requests.
 */

/**
 * Runs `task` for each item with at most `limit` in flight. The first failure stops new starts
 * and is thrown once the running tasks have settled.
 */
export async function forEachLimited<T>(
  items: readonly T[],
  limit: number,
  task: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (failure === undefined && next < items.length) {
      const index = next++;
      try {
        await task(items[index] as T, index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure) throw failure.error;
}

/** One item's failure in {@link forEachSettled}. */
export interface ItemFailure<T> {
  readonly item: T;
  readonly error: unknown;
}

/** Options of {@link forEachSettled}. */
export interface SettledOptions {
  /**
   * A failure that stops the whole fan-out: no item starts after it (those running finish), e.g. a
   * spent daily quota, after which every request would be refused too.
   */
  readonly stopOn?: (error: unknown) => boolean;
}

/**
 * Runs `task` for every item with at most `limit` in flight, whatever fails: for work on many
 * independent devices, where one device's failure must not stop the others — unless it is one
 * `options.stopOn` names. Returns the failures; items never started are neither done nor failed.
 */
export async function forEachSettled<T>(
  items: readonly T[],
  limit: number,
  task: (item: T, index: number) => Promise<void>,
  options: SettledOptions = {},
): Promise<ItemFailure<T>[]> {
  const failures: ItemFailure<T>[] = [];
  let next = 0;
  let stopped = false;
  const worker = async () => {
    while (!stopped && next < items.length) {
      const index = next++;
      const item = items[index] as T;
      try {
        await task(item, index);
      } catch (error) {
        failures.push({ item, error });
        if (options.stopOn?.(error)) stopped = true;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return failures;
}
