/**
 * A package loaded on first use instead of at start-up. Stripe, the Telegram bot library and the
 * passkey verifier are needed only by the sites that configure them, yet loading them at start cost
 * every process about 13 MB of heap (their source text and code) that each full garbage collection
 * then marks again under load. The first call starts the import; later calls share it. A failed
 * import is not kept, so the next call tries again.
 */
export function lazyModule<Module>(load: () => Promise<Module>): () => Promise<Module> {
  let loading: Promise<Module> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}
