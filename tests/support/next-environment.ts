// What Next's server sets up before anything of Next loads: AsyncLocalStorage as a global,
// which Next's request-scope storages capture when they are first loaded. Test files share a
// worker's modules (vitest.config.mts: isolate false), so whichever file loads Next first must
// find it there: every file sets it up before it runs.
import "next/dist/server/node-environment-baseline";
