import "server-only";
import { z } from "zod";

const intFromEnv = (fallback: number, min: number) => z.coerce.number().int().min(min).default(fallback);

/** pino's levels, most to least severe; `silent` writes nothing. */
const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
const logLevel = z.enum(LOG_LEVELS).default("info");

const envSchema = z.object({
  PORT: intFromEnv(3000, 1),
  DATABASE_URL: z.string().min(1).optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(4),
  DATA_DIR: z.string().min(1).default("./.data"),
  SECRET_KEY: z.string().min(1).optional(),
  BOOTSTRAP_ADMIN_TOKEN: z.string().min(1).optional(),
  BOOTSTRAP_ADMIN_PASSWORD: z.string().min(1).optional(),
  MARKETPLACE_ALLOWED_HOSTS: z.string().default(""),
  MARKETPLACE_CACHE_TTL_SECONDS: intFromEnv(300, 0),
  MARKETPLACE_TIMEOUT_MS: intFromEnv(10_000, 1),
  MARKETPLACE_MAX_BYTES: intFromEnv(5_242_880, 1),
  WEBHOOK_ALLOWED_HOSTS: z.string().default(""),
  HINDSIGHT_API_URL: z.url().optional(),
  HINDSIGHT_API_KEY: z.string().min(1).optional(),
  HINDSIGHT_TIMEOUT_MS: intFromEnv(10_000, 1),
  TRUSTED_PROXIES: intFromEnv(0, 0),
  // Whole minutes in production; a fraction (0.1: six seconds) lets a test watch several runs.
  UPDATE_CHECK_INTERVAL_MINUTES: z.coerce
    .number()
    .min(0)
    .default(60)
    .refine((minutes) => minutes === 0 || minutes >= 1 / 60, "0 (off) or at least 1/60 (a second)"),
  LOG_LEVEL: logLevel,
  METRICS_TOKEN: z.string().min(1).optional(),
  OIDC_ISSUER: z.url().optional(),
  OIDC_CLIENT_ID: z.string().trim().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().trim().min(1).optional(),
  OIDC_NAME: z.string().trim().min(1).default("single sign-on"),
  OIDC_SCOPES: z.string().trim().min(1).default("openid email profile"),
  OIDC_GROUPS_CLAIM: z.string().trim().min(1).default("groups"),
  OIDC_ADMIN_GROUPS: z.string().optional(),
  OIDC_CREATE_USERS: z.stringbool().default(false),
  PASSWORD_SIGN_IN: z.stringbool().default(true),
});

/** The variables of the schema above (.env.example must list every one: tests/env-example.test.ts). */
export const CONFIG_VARIABLES = Object.keys(envSchema.shape);

export interface Config {
  port: number;
  databaseUrl: string | null;
  /**
   * Connections each process keeps to PostgreSQL. Few is faster: PostgreSQL runs a query per
   * core at a time anyway, and postgres.js spreads queries over every connection it has, so a
   * large pool wakes a cold backend for each one (measured by `npm run bench`).
   */
  databasePoolSize: number;
  dataDir: string;
  secretKey: string | null;
  bootstrapAdminToken: string | null;
  bootstrapAdminPassword: string | null;
  marketplace: {
    allowedHosts: string[];
    cacheTtlSeconds: number;
    timeoutMs: number;
    maxBytes: number;
  };
  hindsight: { url: string; apiKey: string | null; timeoutMs: number } | null;
  /** Webhook receivers (CONTRACT §20): hosts that may be sent to although they resolve to private or loopback addresses. */
  webhooks: { allowedHosts: string[] };
  /** Reverse proxies in front of the app that append to X-Forwarded-For (client address of the rate limits). */
  trustedProxies: number;
  /** Minutes (a fraction allowed) between scheduled update checks of installed templates; 0 turns them off. */
  updateCheckIntervalMinutes: number;
  logLevel: LogLevel;
  /** Bearer token GET /metrics requires; null: the endpoint is open. */
  metricsToken: string | null;
  /** Single sign-on with an OpenID provider; null unless OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET are all set. */
  sso: SsoConfig | null;
  /** PASSWORD_SIGN_IN=false: only the bootstrap admin (user `admin`) may sign in to the console with a password. */
  passwordSignIn: boolean;
}

export interface SsoConfig {
  /** Without a trailing slash; discovery is `{issuer}/.well-known/openid-configuration`. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The button label: "Sign in with {name}". */
  name: string;
  /** The scopes asked for, space-separated (`openid` always among them). */
  scopes: string;
  /** The claim (ID token or userinfo) that lists the user's groups. */
  groupsClaim: string;
  /** Members of any of these groups are admins, the others members, at every sign-in; null: roles are left as they are. */
  adminGroups: string[] | null;
  /** Whether a first sign-in that matches no user creates a member. */
  createUsers: boolean;
}

export class ConfigError extends Error {}

/** A comma list of `host` or `host:port` (an allow-list of private hosts), lower-cased. */
const hostList = (text: string) => commaList(text.toLowerCase());

/** Reads the configuration of CONTRACT §1 from the environment; empty values count as unset. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new ConfigError(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    databaseUrl: e.DATABASE_URL ?? null,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    dataDir: e.DATA_DIR,
    secretKey: e.SECRET_KEY ?? null,
    bootstrapAdminToken: e.BOOTSTRAP_ADMIN_TOKEN ?? null,
    bootstrapAdminPassword: e.BOOTSTRAP_ADMIN_PASSWORD ?? null,
    marketplace: {
      allowedHosts: hostList(e.MARKETPLACE_ALLOWED_HOSTS),
      cacheTtlSeconds: e.MARKETPLACE_CACHE_TTL_SECONDS,
      timeoutMs: e.MARKETPLACE_TIMEOUT_MS,
      maxBytes: e.MARKETPLACE_MAX_BYTES,
    },
    webhooks: { allowedHosts: hostList(e.WEBHOOK_ALLOWED_HOSTS) },
    hindsight: e.HINDSIGHT_API_URL
      ? { url: e.HINDSIGHT_API_URL, apiKey: e.HINDSIGHT_API_KEY ?? null, timeoutMs: e.HINDSIGHT_TIMEOUT_MS }
      : null,
    trustedProxies: e.TRUSTED_PROXIES,
    updateCheckIntervalMinutes: e.UPDATE_CHECK_INTERVAL_MINUTES,
    logLevel: e.LOG_LEVEL,
    metricsToken: e.METRICS_TOKEN ?? null,
    sso: ssoConfig(e),
    passwordSignIn: e.PASSWORD_SIGN_IN,
  };
}

const commaList = (text: string) =>
  text
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);

function ssoConfig(e: z.output<typeof envSchema>): SsoConfig | null {
  if (!e.OIDC_ISSUER || !e.OIDC_CLIENT_ID || !e.OIDC_CLIENT_SECRET) return null;
  const scopes = new Set(e.OIDC_SCOPES.split(/\s+/));
  scopes.add("openid");
  const adminGroups = commaList(e.OIDC_ADMIN_GROUPS ?? "");
  return {
    issuer: e.OIDC_ISSUER.replace(/\/+$/, ""),
    clientId: e.OIDC_CLIENT_ID,
    clientSecret: e.OIDC_CLIENT_SECRET,
    name: e.OIDC_NAME,
    scopes: [...scopes].join(" "),
    groupsClaim: e.OIDC_GROUPS_CLAIM,
    adminGroups: adminGroups.length > 0 ? adminGroups : null,
    createUsers: e.OIDC_CREATE_USERS,
  };
}

/**
 * LOG_LEVEL alone, for the logger, which exists before (and whether or not) the rest of the
 * configuration is valid: an invalid value falls back to `info` here, and loadConfig refuses it.
 */
export function logLevelFrom(env: Record<string, string | undefined>): LogLevel {
  const parsed = logLevel.safeParse(env.LOG_LEVEL || undefined);
  return parsed.success ? parsed.data : "info";
}
