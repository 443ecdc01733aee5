import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * False while the server-rendered page has not been hydrated yet, true after. A form whose
 * inputs are disabled until then cannot lose what someone typed before React took over the
 * page (React resets controlled inputs to their state when it hydrates).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
