"use client";
import { createContext, useContext } from "react";
import type { ConsoleUser } from "@/lib/contracts/identity/console-user";

const ConsoleUserContext = createContext<ConsoleUser | null>(null);

export const ConsoleUserProvider = ConsoleUserContext.Provider;

/** The signed-in user (id, display name, role), as the console layout read it. */
export function useConsoleUser(): ConsoleUser {
  const user = useContext(ConsoleUserContext);
  if (!user) throw new Error("useConsoleUser is used outside the console layout");
  return user;
}
