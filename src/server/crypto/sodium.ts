type Sodium = typeof import('libsodium-wrappers-sumo').default;

let loading: Promise<Sodium> | undefined;

/** libsodium, loaded on first use (its WebAssembly takes a moment): only vault users need it. */
export function loadSodium(): Promise<Sodium> {
  loading ??= import('libsodium-wrappers-sumo').then(async ({ default: sodium }) => {
    await sodium.ready;
    return sodium;
  });
  return loading;
}
