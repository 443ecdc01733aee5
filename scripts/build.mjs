// `node scripts/build.mjs`: the production build as the container image makes it, `next build`
// and then our server in the standalone output (scripts/build-if-changed.mjs), unless `.next`
// already holds a build of these sources.
import { buildIfChanged } from "./build-if-changed.mjs";

process.exit(buildIfChanged(process.cwd()));
