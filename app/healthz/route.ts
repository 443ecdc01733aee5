// GET /healthz – 200 while the process runs
export const dynamic = "force-dynamic";

export function GET() {
  return Response.json({ status: "ok" });
}
