/**
 * A loader that runs `load` once and keeps its result for every later call
 * (a module imported on first use, a provider's configuration). A failed
 * load is not kept: the next call tries again, so a transient failure (an
 * issuer down, an import interrupted) never sticks until a restart.
 */
export function loadOnce<Value>(load: () => Promise<Value>): () => Promise<Value> {
  let loading: Promise<Value> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}
