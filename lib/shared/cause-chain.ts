/**
 * An error and the errors it wraps, outermost first, through `cause` (drizzle wraps driver
 * errors, undici wraps socket errors). Bounded, so a cycle or a very deep chain cannot hang
 * the caller. The one walk the database, network and log code share.
 */
export function causeChain(error: unknown, maxDepth = 8): unknown[] {
  const chain: unknown[] = [];
  for (let e = error; e && chain.length < maxDepth; e = (e as { cause?: unknown }).cause) chain.push(e);
  return chain;
}

/** The string `code` of each error in the chain, outermost first (SQLSTATEs, socket and driver codes). */
export const causeCodes = (error: unknown): string[] =>
  causeChain(error).flatMap((e) => {
    const code = (e as { code?: unknown }).code;
    return typeof code === "string" ? [code] : [];
  });
