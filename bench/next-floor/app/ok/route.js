// GET /ok – the framework's floor for `npm run bench`: a route handler of the installed Next.js
// answering "ok" with nothing of the app around it (no proxy, no database, no authentication).
export const dynamic = "force-dynamic";

export function GET() {
  return new Response("ok");
}
