// The layer rule of the whole repository (CONTRIBUTING.md, "The layers"). `npm run lint` (alone:
// `npm run lint:layers`) cruises every file that ships or runs as a program: app/, proxy.ts,
// instrumentation.ts, components/, cli/, client/, bench/, lib/ and db/. It lists no exception.
// Tests (tests/, e2e/) and the build's scripts (scripts/) are not cruised: they may reach any layer.

// lib/ and db/ are in layers: each folder imports only the folders below it.
const LAYERS = [
  ["lib/http", "lib/auth"], // the API's HTTP edge, and the console's sign-in (next-auth)
  ["lib/server"], // starting the app: migrations, bootstrap, schedulers
  ["lib/services"], // one function per verb, verb(ctx, input)
  ["db"], // tables, migrations, the database handle
  ["lib/platform"], // config, logging, metrics, outbound HTTP, secrets
  ["lib/contracts"], // methods, paths and zod schemas; neutral errors; shared with the browser
  ["lib/shared"], // pure helpers with no import from the repo
];
const escapeRegex = (folder) => folder.replace(/[/.]/g, "\\$&");
const pathsOf = (layers) => `^(${layers.flat().map(escapeRegex).join("|")})/`;

const upward = LAYERS.flatMap((layer, rank) =>
  rank === 0
    ? []
    : [
        {
          name: `no-upward-from-${layer[0].replace(/^lib\//, "")}`,
          comment: `${layer.join(", ")} may import only the layers below it.`,
          severity: "error",
          from: { path: pathsOf([layer]) },
          to: { path: pathsOf(LAYERS.slice(0, rank)) },
        },
      ],
);

// Above lib/: the programs and the pages. Each may import of the repository's own code only what
// `may` lists (its own folder included; packages and Node's modules are no concern of this rule).
// `from` and `may` are regular expressions of paths from the repository's root.
const HANDLERS = "(ext|api|healthz|readyz|metrics)/"; // app/'s route handlers; the rest of app/ is pages
const PROGRAMS = [
  {
    name: "pages",
    from: `^app/(?!${HANDLERS})`,
    may: [`app/(?!${HANDLERS})`, "components/", "lib/auth/", "lib/contracts/", "lib/shared/"],
    why:
      "Pages and layouts render the console's components. On the server they know only the session " +
      "(lib/auth: who is signed in, the sign-in options); their data comes from the API, in the browser.",
  },
  {
    name: "api-routes",
    from: "^app/ext/svc/",
    may: ["app/ext/svc/", "lib/http/", "lib/services/", "lib/contracts/", "lib/platform/", "lib/shared/"],
    why:
      "One file per API path binds a contract to a service through the pipeline (lib/http). " +
      "Not db/ (a service reads it), not the console's sign-in, not the browser's code.",
  },
  {
    name: "sign-in-route",
    from: "^app/api/auth/",
    may: ["app/api/auth/", "lib/auth/", "lib/http/", "lib/server/", "lib/services/", "lib/platform/", "lib/contracts/", "lib/shared/"],
    why:
      "next-auth's route is the console's sign-in at the HTTP edge: it answers problem+json as the API does (lib/http) " +
      "and counts attempts with the rate-limit services, on the app lib/server starts. Not db/, not the browser's code.",
  },
  {
    name: "probes",
    from: "^app/(healthz|readyz|metrics)/",
    may: ["lib/http/", "lib/server/", "lib/platform/"],
    why: "Health, readiness and metrics: the API's headers and request id, readiness, config and the metrics registry.",
  },
  {
    name: "proxy",
    from: "^proxy\\.ts$",
    may: ["lib/http/", "lib/auth/"],
    why: "Runs before the pages, apart from the database: a request id, the security headers, the session cookie's presence.",
  },
  {
    name: "instrumentation",
    from: "^instrumentation\\.ts$",
    may: ["lib/server/", "lib/platform/"],
    why: "Starts the server once: the peer address, the process metrics, then lib/server's start-up.",
  },
  {
    name: "components",
    from: "^components/",
    may: ["components/", "lib/client/", "lib/contracts/", "lib/shared/"],
    why: "The console's UI runs in the browser: the typed client and its hooks, contracts and pure helpers.",
  },
  {
    name: "browser-client",
    from: "^lib/client/",
    may: ["lib/client/", "lib/contracts/", "lib/shared/"],
    why: "The console's client code (lib/client) runs in the browser: contracts and shared helpers only.",
  },
  {
    name: "cli",
    from: "^cli/",
    may: ["cli/", "client/", "lib/contracts/", "lib/shared/"],
    why:
      "The command line is a program over the typed client (client/), as any program is; of lib/ it takes the " +
      "problem types' codes and statuses (lib/contracts) and pure helpers, nothing of the server.",
  },
  {
    name: "client",
    from: "^client/",
    may: ["client/"],
    why: "The typed client for programs imports nothing of the server's code: a program copies the folder as it is.",
  },
  {
    name: "bench",
    from: "^bench/",
    may: ["bench/", "lib/services/", "db/", "lib/platform/", "lib/contracts/", "lib/shared/", "tests/support/", "scripts/"],
    why:
      "The benchmarks time service verbs on each database, in process, with the tests' fixtures and service context; " +
      "the whole server only as a process of its own over HTTP, placed as `npm start` does (scripts/). " +
      "So the services and what is below them, not the HTTP edge, the sign-in or the console.",
  },
];

const programs = PROGRAMS.map(({ name, from, may, why }) => ({
  name: `only-${name}`,
  comment: why,
  severity: "error",
  from: { path: from },
  to: { pathNot: `^(node_modules/|${may.join("|")})`, dependencyTypesNot: ["core"] },
}));

module.exports = {
  forbidden: [
    ...upward,
    ...programs,
    {
      name: "lib-imports-no-program",
      comment: "lib/ and db/ are what the programs and pages stand on: they import none of them, nor the tests.",
      severity: "error",
      from: { path: "^(lib|db)/" },
      to: { path: "^(app|components|cli|client|bench|tests|e2e|scripts)/|^(proxy|instrumentation)\\.ts$" },
    },
    {
      name: "edges-apart",
      comment: "The API edge may use the console's sign-in, not the other way round.",
      severity: "error",
      from: { path: "^lib/auth/" },
      to: { path: "^lib/http/" },
    },
    // lib/contracts is in three layers of its own: the kernel (its root files: endpoint, errors,
    // fields, validation, the problem types…), the areas (a folder each: templates, banks…) and
    // registry/ (what lists every area: endpoints, routes, the OpenAPI document).
    {
      name: "contracts-kernel-imports-no-folder",
      comment:
        "The kernel of lib/contracts imports none of its folders: the areas build on it. " +
        "no-folder-cycle cannot see this edge: dependency-cruiser counts a subfolder as inside its parent.",
      severity: "error",
      from: { path: "^lib/contracts/[^/]+$" },
      to: { path: "^lib/contracts/[^/]+/" },
    },
    {
      name: "contracts-registry-on-top",
      comment: "Inside lib/contracts only the registry imports the registry: it imports every area.",
      severity: "error",
      from: { path: "^lib/contracts/", pathNot: "^lib/contracts/registry/" },
      to: { path: "^lib/contracts/registry/" },
    },
    {
      name: "no-module-cycle",
      comment:
        "No cycle between modules. components/ is not held to it yet: lazy chunks import their props' type " +
        "from the module that loads them, and components/console and components/forms use each other.",
      severity: "error",
      from: { path: "^(app|bench|cli|client|db|lib)/" },
      to: { circular: true },
    },
    {
      name: "no-folder-cycle",
      comment: "No cycle between folders either (components/ aside, as above).",
      severity: "error",
      scope: "folder",
      from: { path: "^(app|bench|cli|client|db|lib)/" },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|\\.next|\\.data)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    // Packages by their "exports" (nuqs has no "main"), and the client's generated schema.d.ts.
    enhancedResolveOptions: {
      extensions: [".ts", ".tsx", ".js", ".mjs", ".json", ".d.ts"],
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
    },
  },
};
