import { randomBytes } from "node:crypto";

/**
 * A new database named `{prefix}_{random}` on the server of `serverUrl` (one where it may create
 * databases), empty or a copy of `template`; dropped again by `drop`.
 */
export async function freshServerDatabase(
  serverUrl: string,
  prefix: string,
  template?: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const { default: postgres } = await import("postgres");
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  await admin.unsafe(`create database ${name}${template ? ` template ${template}` : ""}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}
