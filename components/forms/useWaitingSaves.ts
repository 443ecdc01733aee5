"use client";
import { useCallback, useState } from "react";
import { type PendingSave, watchSaves } from "@/lib/client/pending-saves";

/**
 * The saves an action of this component left waiting for the server (lib/client/pending-saves.ts):
 * `track(action)` runs the action and collects the saves it starts that wait, for the form or
 * dialog to say "Saving when the server is back…" with a Cancel that sends nothing more.
 */
export function useWaitingSaves() {
  const [saves, setSaves] = useState<readonly PendingSave[]>([]);
  const track = useCallback(async <T>(action: () => Promise<T>): Promise<T> => {
    const unwatch = watchSaves((save) => {
      setSaves((current) => [...current, save]);
      void save.settled.then(() => setSaves((current) => current.filter((s) => s !== save)));
    });
    try {
      return await action();
    } finally {
      unwatch();
    }
  }, []);
  return {
    track,
    /** An action of this component waits for the server to send its save again. */
    waiting: saves.length > 0,
    /** Does not send the waiting saves: their actions end with "Save cancelled". */
    cancelWaiting: () => {
      for (const save of saves) save.cancel();
    },
  };
}
