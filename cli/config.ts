// Where the login (server URL and API key) is kept, and how a command finds the one to use.
import { chmod, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import envPaths from "env-paths";
import { notLoggedIn, usageError } from "./errors";

interface StoredLogin {
  url: string;
  api_key: string;
}

export interface Connection {
  url: string;
  apiKey: string;
}

const fromEnv = (name: string): string | undefined => process.env[name] || undefined;

/** `BANK_TEMPLATES_CONFIG_DIR`, else the platform's config folder (`~/.config/bank-templates` on Linux). */
function configDir(): string {
  return fromEnv("BANK_TEMPLATES_CONFIG_DIR") ?? envPaths("bank-templates", { suffix: "" }).config;
}

export function configFile(): string {
  return path.join(configDir(), "config.json");
}

/**
 * The server's base URL as the client wants it: http(s), no trailing slash, no `/ext/svc` (the
 * client's paths carry it, and people paste the API's URL as often as the console's).
 */
export function normalizeBaseUrl(input: string): string {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw usageError(`"${input}" is not a URL; give the server's address, such as https://templates.example.com`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw usageError(`"${input}" is not an http or https URL`);
  const pathname = url.pathname.replace(/\/+$/, "").replace(/\/ext\/svc$/, "");
  return `${url.origin}${pathname}`;
}

async function readStoredLogin(): Promise<StoredLogin | null> {
  const file = configFile();
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw notLoggedIn(`Cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    const stored = JSON.parse(text) as Partial<StoredLogin>;
    if (typeof stored.url === "string" && typeof stored.api_key === "string") return { url: stored.url, api_key: stored.api_key };
  } catch {
    // Reported below, like a file of the wrong shape.
  }
  throw notLoggedIn(`${file} is not a login this CLI wrote; run \`bank-templates login\` again`);
}

/**
 * Writes the login readable by its owner only. The file is written beside its final name and
 * renamed, so it never exists with wider permissions or half written.
 */
export async function storeLogin(login: StoredLogin): Promise<string> {
  const dir = configDir();
  await mkdir(dir, { recursive: true, mode: 0o700 });
  // mkdir's mode applies only to folders it creates and is narrowed by the umask.
  await chmod(dir, 0o700);
  const file = configFile();
  const partial = `${file}.${process.pid}.tmp`;
  // A leftover of a crashed run may have other permissions: start from no file at all.
  await rm(partial, { force: true });
  await writeFile(partial, `${JSON.stringify(login, null, 2)}\n`, { mode: 0o600, flag: "wx" });
  await chmod(partial, 0o600);
  await rename(partial, file);
  return file;
}

/** Whether there was a stored login to remove. */
export async function removeStoredLogin(): Promise<boolean> {
  try {
    await rm(configFile());
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}

/** The server and key a command uses: `BANK_TEMPLATES_URL` / `BANK_TEMPLATES_API_KEY`, else the stored login. */
export async function resolveConnection(): Promise<Connection> {
  const envUrl = fromEnv("BANK_TEMPLATES_URL");
  const envKey = fromEnv("BANK_TEMPLATES_API_KEY");
  const stored = envUrl && envKey ? null : await readStoredLogin();
  const url = envUrl ?? stored?.url;
  const apiKey = envKey ?? stored?.api_key;
  if (!url || !apiKey) {
    throw notLoggedIn("Run `bank-templates login`, or set BANK_TEMPLATES_URL and BANK_TEMPLATES_API_KEY");
  }
  return { url: normalizeBaseUrl(url), apiKey };
}
