import "server-only";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type Config, ConfigError } from "@/lib/platform/config";

/** Decodes a 32-byte key given as 64 hex digits or as base64. */
function parseSecretKey(text: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, "hex") : Buffer.from(trimmed, "base64");
  if (key.length !== 32) throw new ConfigError("SECRET_KEY must be 32 bytes, written as 64 hex digits or base64");
  return key;
}

/**
 * SECRET_KEY from the environment; in embedded mode one is generated into DATA_DIR on first
 * start. With DATABASE_URL it must be given: a generated key on one host would leave the
 * tokens unreadable to every other process sharing the database.
 */
export function resolveSecretKey(config: Config): Buffer {
  if (config.secretKey) return parseSecretKey(config.secretKey);
  if (config.databaseUrl) {
    throw new ConfigError(
      "SECRET_KEY is required when DATABASE_URL is set (32 bytes as 64 hex digits or base64, e.g. `openssl rand -hex 32`)",
    );
  }
  const file = path.join(config.dataDir, "secret.key");
  if (existsSync(file)) return parseSecretKey(readFileSync(file, "utf8"));
  mkdirSync(config.dataDir, { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, `${key.toString("hex")}\n`, { mode: 0o600, flag: "wx" });
  return key;
}
