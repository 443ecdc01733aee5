import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "@/lib/platform/config";

describe("DATABASE_POOL_SIZE", () => {
  it("is 4 connections per process unless set (an empty value counts as unset)", () => {
    expect(loadConfig({}).databasePoolSize).toBe(4);
    expect(loadConfig({ DATABASE_POOL_SIZE: "" }).databasePoolSize).toBe(4);
  });

  it("takes a whole number from 1 to 100", () => {
    expect(loadConfig({ DATABASE_POOL_SIZE: "1" }).databasePoolSize).toBe(1);
    expect(loadConfig({ DATABASE_POOL_SIZE: "20" }).databasePoolSize).toBe(20);
  });

  it.each(["0", "101", "2.5", "many"])("refuses %s, naming the variable", (value) => {
    expect(() => loadConfig({ DATABASE_POOL_SIZE: value })).toThrow(ConfigError);
    expect(() => loadConfig({ DATABASE_POOL_SIZE: value })).toThrow(/DATABASE_POOL_SIZE/);
  });
});
