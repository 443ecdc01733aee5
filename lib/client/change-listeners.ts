/**
 * The listeners of a module-level store (the shape `useSyncExternalStore` subscribes to): the
 * console's small stores (waiting saves, reachability, the discard question) each keep one.
 */
export function changeListeners() {
  const listeners = new Set<() => void>();
  return {
    /** Adds a listener; returns its removal. */
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    /** Tells every listener that the store changed. */
    emit(): void {
      for (const listener of listeners) listener();
    },
  };
}
