import "server-only";
import { eq } from "drizzle-orm";
import type { z } from "zod";
import type { Database } from "@/db/client";
import { bankPolicies } from "@/db/schema";
import type { BankDetail } from "@/lib/contracts/banks/schemas";
import type { StoredBankDetail } from "./bank-store";

/**
 * A bank as GET /ext/svc/banks/{bank_id} answers it: what its store holds, and whether a policy
 * exists for its id (policies live in our database in both modes). Also the before and after of
 * the bank's audit entries.
 */
export async function presentBankDetail(db: Database, bank: StoredBankDetail): Promise<z.input<typeof BankDetail>> {
  const [policy] = await db
    .select({ bankId: bankPolicies.bankId })
    .from(bankPolicies)
    .where(eq(bankPolicies.bankId, bank.bank_id))
    .limit(1);
  return { ...bank, has_policy: policy !== undefined };
}
