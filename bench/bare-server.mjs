// The floor for the API's reads: node:http + postgres.js answering GET /ext/svc/me, GET one
// template, a filtered page of templates and a bank's policy resolve with the same SQL, the same
// key check and as many connections as the app (lib/services/identity/authenticate.ts,
// lib/services/templates/templates.ts, lib/services/policy/policy.ts), and nothing else: no
// framework, no validation, no cache. The resolve answers the stored document: the resolution
// itself is a pure function of the document and the query (lib/contracts/policy/resolve.ts).
// Started by bench/throughput.ts (two workers, bench/cluster.mjs): PORT,
// DATABASE_URL, DATABASE_POOL_SIZE, CURSOR_KEY (hex), and
// TEMPLATE_JSON_SQL: the app's presenter of a template as the SQL expression its hot reads send
// (templateJson, lib/services/templates/template-fields.ts), so this server has no copy of its own.
import { createHash, createHmac } from "node:crypto";
import { createServer } from "node:http";
import postgres from "postgres";

// As many connections as the app keeps (DATABASE_POOL_SIZE, passed by bench/throughput.ts).
const sql = postgres(process.env.DATABASE_URL, { max: Number(process.env.DATABASE_POOL_SIZE), onnotice: () => {} });
const cursorKey = Buffer.from(process.env.CURSOR_KEY ?? "00", "hex");
const templateJson = sql.unsafe(process.env.TEMPLATE_JSON_SQL);

async function actorFor(header) {
  const token = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? "")?.[1];
  if (!token) return null;
  const hash = createHash("sha256").update(token, "utf8").digest("hex");
  const [row] = await sql`
    select k.id as key_id, k.last_used_at, u.id as user_id, u.display_name as user_name, u.role as user_role,
           u.is_active as user_active, sa.id as sa_id, sa.display_name as sa_name, sa.role as sa_role, sa.is_active as sa_active
    from api_keys k
    join users u on u.id = k.user_id
    left join service_accounts sa on sa.owner_user_id = k.user_id and sa.id = k.sa_id
    where k.token_hash = ${hash} limit 1`;
  if (!row?.user_active || (row.sa_id !== null && !row.sa_active)) return null;
  if (row.sa_id === null) return { type: "user", id: row.user_id, userId: row.user_id, role: row.user_role, displayName: row.user_name };
  const role = row.sa_role === "admin" && row.user_role === "admin" ? "admin" : "member";
  return { type: "service_account", id: row.sa_id, userId: row.user_id, role, displayName: row.sa_name };
}

function encodeCursor(after, context) {
  const payload = Buffer.from(JSON.stringify({ after, context })).toString("base64url");
  const mac = createHmac("sha256", cursorKey).update(`cursor\0${payload}`).digest("base64url").slice(0, 22);
  return `${payload}.${mac}`;
}

const sendText = (res, status, text) => {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
  res.end(text);
};
const send = (res, status, body) => sendText(res, status, JSON.stringify(body));

createServer(async (req, res) => {
  try {
    const url = new URL(req.url, "http://localhost");
    if (url.pathname === "/healthz") return send(res, 200, { status: "ok" });
    const actor = await actorFor(req.headers.authorization);
    if (!actor) return send(res, 401, { status: 401 });
    if (url.pathname === "/ext/svc/me") {
      return send(res, 200, {
        user_id: actor.userId,
        principal_type: actor.type,
        principal_id: actor.id,
        role: actor.role,
        display_name: actor.displayName,
      });
    }
    if (url.pathname === "/ext/svc/me/templates") {
      const tag = url.searchParams.get("tag");
      const limit = Number(url.searchParams.get("limit") ?? 50);
      const rows = await sql`
        select id, ${templateJson} as json from templates
        where scope = 'personal' and owner = ${actor.userId} and tags @> ${[tag]}::text[]
        order by id limit ${limit + 1}`;
      const page = rows.slice(0, limit);
      const context = JSON.stringify(["personal", actor.userId, null, tag]);
      const next = rows.length > limit ? JSON.stringify(encodeCursor(page[page.length - 1].id, context)) : "null";
      return sendText(res, 200, `{"templates":[${page.map((row) => row.json).join(",")}],"next_cursor":${next}}`);
    }
    const policy = /^\/ext\/svc\/banks\/([^/]+)\/policy\/resolve$/.exec(url.pathname);
    if (policy) {
      // The owner check, then the document, as the app's two reads (lib/services/banks/access.ts).
      const bankId = decodeURIComponent(policy[1]);
      const [bank] = await sql`select owner from banks where id = ${bankId}`;
      if (actor.role !== "admin" && bank?.owner !== actor.userId) return send(res, 403, { status: 403 });
      const [row] = await sql`select document from bank_policies where bank_id = ${bankId}`;
      return row ? send(res, 200, row.document) : send(res, 404, { status: 404 });
    }
    const one = /^\/ext\/svc\/me\/templates\/([^/]+)$/.exec(url.pathname);
    if (one) {
      const [row] = await sql`
        select ${templateJson} as json from templates
        where scope = 'personal' and owner = ${actor.userId} and id = ${decodeURIComponent(one[1])} limit 1`;
      return row ? sendText(res, 200, row.json) : send(res, 404, { status: 404 });
    }
    send(res, 404, { status: 404 });
  } catch (error) {
    send(res, 500, { status: 500, detail: String(error) });
  }
}).listen(Number(process.env.PORT), "127.0.0.1", () => console.log("bare server ready"));
