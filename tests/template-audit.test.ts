import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "./support/app";
import { catalog, catalogEntry, manifest } from "./support/fixtures";
import { useMarketplace } from "./support/use-marketplace";

// CONTRACT §17: a template write's entry names the template (the installed id for an install) and
// holds it as the API answers it before the write and after; bulk writes name "*" and hold lists.
const t = useTestApp();
const market = useMarketplace(t);
const T = "/ext/svc/me/templates";

const lastEntry = () => t.lastAudit();

describe("template audit entries", () => {
  it("hold the template before and after each write", async () => {
    const ann = await t.user("ann");
    const created = await ann.post(T, { id: "hand", name: "Hand", manifest: manifest() });
    expect(created.status).toBe(200);
    expect(await lastEntry()).toMatchObject({
      action: "template.create",
      targetType: "template",
      targetId: "hand",
      before: null,
      after: created.body,
    });

    const patched = await ann.patch(`${T}/hand`, { description: "Edited" });
    expect(await lastEntry()).toMatchObject({ action: "template.patch", targetId: "hand", before: created.body, after: patched.body });

    const rolledBack = await ann.post(`${T}/hand/rollback`, { version: 1 });
    expect(await lastEntry()).toMatchObject({ action: "template.rollback", before: patched.body, after: rolledBack.body });

    market.setFile("/audit-tpl/templates.json", catalog(catalogEntry("alpha"), catalogEntry("beta")));
    expect((await ann.post("/ext/svc/me/template-sources", { url: `${market.url}/audit-tpl`, alias: "m" })).status).toBe(201);
    const installed = await ann.post(`${T}/alpha/install`, { source_name: "m", alias_id: "mine" });
    expect(installed.status).toBe(200);
    expect(await lastEntry()).toMatchObject({ action: "template.install", targetId: "mine", before: null, after: installed.body });
    expect((await ann.post(`${T}/beta/install`, { source_name: "m" })).status).toBe(200);

    const [mine, beta] = [(await ann.get(`${T}/mine`)).body, (await ann.get(`${T}/beta`)).body];
    expect((await ann.post(`${T}/update-all`)).status).toBe(200);
    const bulk = await lastEntry();
    expect(bulk).toMatchObject({ action: "template.update_all", targetType: "template", targetId: "*", before: [beta, mine] });
    expect(bulk.after).toEqual([(await ann.get(`${T}/beta`)).body, (await ann.get(`${T}/mine`)).body]);

    const gone = (await ann.get(`${T}/hand`)).body;
    expect((await ann.delete(`${T}/hand`)).status).toBe(204);
    expect(await lastEntry()).toMatchObject({ action: "template.delete", targetId: "hand", before: gone, after: null });
  });

  it("a bulk update that a fault stops halfway leaves neither its writes nor its entry", async () => {
    const bo = await t.user("bo");
    market.setFile("/audit-halt/templates.json", catalog(catalogEntry("first"), catalogEntry("second")));
    expect((await bo.post("/ext/svc/me/template-sources", { url: `${market.url}/audit-halt`, alias: "h" })).status).toBe(201);
    for (const id of ["first", "second"]) expect((await bo.post(`${T}/${id}/install`, { source_name: "h" })).status).toBe(200);
    const [first, second] = [(await bo.get(`${T}/first`)).body, (await bo.get(`${T}/second`)).body];
    const installed = await lastEntry();
    // A fault (not a refusal, which would be the template's own problem) writing the second
    // template fails the whole call: the first template's write goes with it, and no entry is left.
    await t.app.db.execute(
      sql.raw(
        `create function refuse_second() returns trigger language plpgsql as $$ begin if new.id = 'second' then raise exception 'second refused'; end if; return new; end $$`,
      ),
    );
    await t.app.db.execute(
      sql.raw(`create trigger refuse_second before update on templates for each row execute function refuse_second()`),
    );
    try {
      expect((await bo.post(`${T}/update-all`)).status).toBe(500);
    } finally {
      await t.app.db.execute(sql.raw(`drop trigger refuse_second on templates`));
      await t.app.db.execute(sql.raw(`drop function refuse_second()`));
    }
    expect(await lastEntry()).toEqual(installed);
    expect((await bo.get(`${T}/first`)).body).toEqual(first);

    expect((await bo.post(`${T}/update-all`)).status).toBe(200);
    const bulk = await lastEntry();
    expect(bulk).toMatchObject({ action: "template.update_all", targetId: "*", before: [first, second] });
    expect(bulk.after).toEqual([(await bo.get(`${T}/first`)).body, (await bo.get(`${T}/second`)).body]);
  });
});
