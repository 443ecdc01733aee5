/** The bank id of a `/banks/[bank_id]` URL; ids may hold ':' which links encode. */
export async function bankIdParam(params: Promise<{ bank_id: string }>): Promise<string> {
  const { bank_id } = await params;
  try {
    return decodeURIComponent(bank_id);
  } catch {
    return bank_id;
  }
}
