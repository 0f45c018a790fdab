export type Sodium = typeof import('libsodium-wrappers-sumo').default;

let loading: Promise<Sodium> | undefined;

/** libsodium (about 190 KB gzipped, with its WebAssembly), fetched the first time a vault needs it. */
export function loadSodium(): Promise<Sodium> {
  loading ??= import('libsodium-wrappers-sumo')
    .then(async ({ default: sodium }) => {
      await sodium.ready;
      return sodium;
    })
    .catch((error: unknown) => {
      loading = undefined; // a failed download may be tried again
      throw error;
    });
  return loading;
}
