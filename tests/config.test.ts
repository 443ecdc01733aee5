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

describe("UPDATE_CHECK_INTERVAL_MINUTES", () => {
  it("is 60 unless set; 0 turns the check off; a fraction of a minute is taken (tests watch runs seconds apart)", () => {
    expect(loadConfig({}).updateCheckIntervalMinutes).toBe(60);
    expect(loadConfig({ UPDATE_CHECK_INTERVAL_MINUTES: "0" }).updateCheckIntervalMinutes).toBe(0);
    expect(loadConfig({ UPDATE_CHECK_INTERVAL_MINUTES: "0.1" }).updateCheckIntervalMinutes).toBe(0.1);
  });

  it.each(["-1", "0.001", "hourly"])("refuses %s (less than a second, or not a number), naming the variable", (value) => {
    expect(() => loadConfig({ UPDATE_CHECK_INTERVAL_MINUTES: value })).toThrow(/UPDATE_CHECK_INTERVAL_MINUTES/);
  });
});
