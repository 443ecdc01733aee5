import { defineConfig } from "drizzle-kit";

// db/schema.ts starts with `import "server-only"`, which throws unless Node resolves with the
// react-server condition: run drizzle-kit through `npm run db:generate`, which passes it.

export default defineConfig({
  dialect: "postgresql",
  schema: "./db/schema.ts",
  out: "./db/migrations",
});
