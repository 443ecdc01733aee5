import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// Issue 19: every service verb the HTTP edge calls has the shape verb(ctx, input): the
// ServiceContext first, at most one input object second. Read from the types, not by hand.
const ROOT = path.resolve(__dirname, "..");

function program(): ts.Program {
  const config = ts.readConfigFile(path.join(ROOT, "tsconfig.json"), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  const edge = parsed.fileNames.filter((file) => {
    const relative = path.relative(ROOT, file);
    return relative.startsWith("lib/http/") || (relative.startsWith("app/ext/svc/") && relative.endsWith("route.ts"));
  });
  return ts.createProgram(edge, { ...parsed.options, noEmit: true });
}

/** Every function the edge imports from lib/services, with where it is declared. */
function servicesCalledByTheEdge(checker: ts.TypeChecker, files: readonly ts.SourceFile[]) {
  const found = new Map<string, ts.Symbol>();
  for (const file of files) {
    const relative = path.relative(ROOT, file.fileName);
    if (!(relative.startsWith("lib/http/") || relative.startsWith("app/ext/svc/"))) continue;
    for (const statement of file.statements) {
      if (!ts.isImportDeclaration(statement) || statement.importClause?.isTypeOnly) continue;
      const from = (statement.moduleSpecifier as ts.StringLiteral).text;
      if (!from.startsWith("@/lib/services/")) continue;
      const bindings = statement.importClause?.namedBindings;
      if (!bindings || !ts.isNamedImports(bindings)) continue;
      for (const element of bindings.elements) {
        if (element.isTypeOnly) continue;
        const symbol = checker.getSymbolAtLocation(element.name);
        const target = symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
        if (target) found.set(`${from}#${element.propertyName?.text ?? element.name.text}`, target);
      }
    }
  }
  return found;
}

/**
 * What the edge may call outside that shape, and why: the pipeline's own machinery, which runs
 * before or around a ServiceContext exists (authenticating the caller, building the context,
 * opening and settling the request's audit journal and its precondition check, claiming and settling
 * its Idempotency-Key).
 */
const NOT_VERBS = new Set([
  "@/lib/services/identity/authenticate#actorForApiKey",
  "@/lib/services/context#callContext",
  "@/lib/services/ratelimit/api-keys#apiKeyAddressBlockedFor",
  "@/lib/services/ratelimit/api-keys#countFailedApiKey",
  "@/lib/services/audit/record#auditFor",
  "@/lib/services/audit/record#settleJournal",
  "@/lib/services/idempotency/keys#requestFingerprint",
  "@/lib/services/idempotency/keys#claimIdempotencyKey",
  "@/lib/services/idempotency/keys#markingWrites",
  "@/lib/services/preconditions#conditionalWrite",
  "@/lib/services/idempotency/keys#storeAnswer",
  "@/lib/services/idempotency/keys#releaseClaim",
]);

describe("the service layer", () => {
  it("is called by the edge only as verb(ctx, input)", () => {
    const p = program();
    const checker = p.getTypeChecker();
    const services = servicesCalledByTheEdge(checker, p.getSourceFiles());
    expect(services.size).toBeGreaterThan(20);
    const wrong: string[] = [];
    for (const [name, symbol] of services) {
      if (NOT_VERBS.has(name)) continue;
      const declaration = symbol.valueDeclaration;
      if (!declaration) continue;
      const type = checker.getTypeOfSymbolAtLocation(symbol, declaration);
      const signatures = type.getCallSignatures();
      if (signatures.length === 0) continue; // a constant (a limit, a list), not a verb
      for (const signature of signatures) {
        const [first, ...rest] = signature.getParameters();
        const firstType = first && checker.typeToString(checker.getTypeOfSymbolAtLocation(first, declaration));
        if (!first || !/^(ServiceContext|RequestContext)$/.test(firstType ?? "") || rest.length > 1) {
          wrong.push(
            `${name}(${signature
              .getParameters()
              .map((s) => s.name)
              .join(", ")}) first: ${firstType}`,
          );
        }
      }
    }
    expect(wrong).toEqual([]);
  }, 120_000);
});
