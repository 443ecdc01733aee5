// The layers of lib/ (README, "Architecture"): each folder imports only the folders below it.
// `npm run lint` fails on an upward import, on a cycle between modules, and on a cycle between
// folders (scope: "folder").
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

module.exports = {
  forbidden: [
    ...upward,
    {
      name: "edges-apart",
      comment: "The API edge may use the console's sign-in, not the other way round.",
      severity: "error",
      from: { path: "^lib/auth/" },
      to: { path: "^lib/http/" },
    },
    {
      name: "browser-code-below-services",
      comment: "The console's client code (lib/client) runs in the browser: contracts and shared helpers only.",
      severity: "error",
      from: { path: "^lib/client/" },
      to: { path: "^(lib/(http|auth|server|services|platform)|db)/" },
    },
    {
      name: "no-module-cycle",
      severity: "error",
      from: { path: "^(lib|db)/" },
      to: { circular: true },
    },
    {
      name: "no-folder-cycle",
      comment: "Folders of lib/ form no cycle either.",
      severity: "error",
      scope: "folder",
      from: { path: "^(lib|db)/" },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|\\.next|\\.data)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".tsx", ".js", ".mjs", ".json"] },
  },
};
