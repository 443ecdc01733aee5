import type { Role } from "@/lib/contracts/fields";

/** The signed-in console user, as the console's server components and client shell see it. */
export interface ConsoleUser {
  id: string;
  displayName: string;
  role: Role;
}
