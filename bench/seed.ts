import { sql } from "drizzle-orm";
import type { Database } from "@/db/client";

/**
 * `rows` templates for the benches: half belong to user `heavy` (the one they read), the rest
 * spread over 1000 users and the server scope, each with `manifest`.
 */
export async function seedTemplates(db: Database, rows: number, manifest: string): Promise<void> {
  await db.execute(sql`insert into users (id, display_name) select 'user' || g, 'User ' || g from generate_series(0, 999) g`);
  await db.execute(sql`insert into users (id, display_name) values ('heavy', 'Heavy user')`);
  await db.execute(sql`
    insert into templates (id, scope, owner, name, category, tags, manifest)
    select 't' || lpad(g::text, 6, '0'),
           case when g % 10 = 0 and g >= ${rows / 2} then 'server' else 'personal' end,
           case when g < ${rows / 2} then 'heavy' when g % 10 = 0 then null else 'user' || (g % 1000) end,
           'Template ' || g,
           (array['ops','sales','support','research'])[1 + g % 4],
           array['tag' || (g % 50), 'tag' || (g % 7)],
           ${manifest}::json
    from generate_series(0, ${rows - 1}) g`);
  await db.execute(sql`analyze`);
}
