/** Code downloaded once and kept; a download that failed (offline) is tried again by the next call. */
export function loadOnce<T>(load: () => Promise<T>): { load: () => Promise<T>; loaded: () => T | null } {
  let value: T | null = null;
  let loading: Promise<T> | null = null;
  return {
    load: () =>
      (loading ??= load().then(
        (result) => (value = result),
        (error: unknown) => {
          loading = null;
          throw error;
        },
      )),
    loaded: () => value,
  };
}
