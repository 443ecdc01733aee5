/** The webhook id of a `.../webhooks/[webhook_id]` URL, as the console's links encode it. */
export async function webhookIdParam(params: Promise<{ webhook_id: string }>): Promise<string> {
  const { webhook_id } = await params;
  try {
    return decodeURIComponent(webhook_id);
  } catch {
    return webhook_id;
  }
}
