// The production server's log (http-server.cjs and its helpers): one JSON object per line on
// stderr, shaped as the app's own lines are (lib/platform/log.ts), for everything the process
// writes, whatever wrote it: Next and the libraries it loads print plain text through the console
// ("Request body exceeded 1MB…", "⨯ TypeError…" with a stack over many lines), which
// routeConsoleToLog turns into such lines as well.
"use strict";

const util = require("node:util");

/** LOG_LEVEL's levels (lib/platform/config.ts), least severe first; `silent` writes none. */
const LEVELS = ["trace", "debug", "info", "warn", "error", "fatal"];
/** How much of a printed message or stack a line keeps: the app's lines stay within 16 KB, so do these. */
const MAX_TEXT_CHARS = 4096;

/** The least severe level written: LOG_LEVEL's (as the app reads it, unknown values as `info`). */
function thresholdOf(env) {
  if (env.LOG_LEVEL === "silent") return LEVELS.length;
  const index = LEVELS.indexOf(env.LOG_LEVEL || "info");
  return index === -1 ? LEVELS.indexOf("info") : index;
}
const threshold = thresholdOf(process.env);

/** One line, whatever its level. */
function writeLine(level, msg, fields = {}) {
  process.stderr.write(`${JSON.stringify({ level, time: new Date().toISOString(), pid: process.pid, ...fields, msg })}\n`);
}

/** One line of the server's own, unless LOG_LEVEL leaves its level out. */
function log(level, msg, fields = {}) {
  if (LEVELS.indexOf(level) >= threshold) writeLine(level, msg, fields);
}

const cut = (text) =>
  text.length > MAX_TEXT_CHARS ? `${text.slice(0, MAX_TEXT_CHARS)}…[${text.length - MAX_TEXT_CHARS} more characters]` : text;

/** The console method's level: what the printing code meant, as the app's logger names it. */
const CONSOLE_LEVELS = { error: "error", warn: "warn", info: "info", log: "info", debug: "debug", trace: "debug" };

/**
 * Makes console.log, info, warn, error, debug and trace, and Node's process warnings, write one
 * JSON line each: the message as util.format makes it, followed by the name and message of an
 * Error among the arguments, which the line holds as `error` ({name, message, stack}, as the
 * app's error lines do). These lines are written whatever LOG_LEVEL says, as they were before:
 * some are meant for the operator at any level (the first start's generated password). An empty
 * message (Next prints blank lines between its own) writes nothing.
 */
function routeConsoleToLog() {
  for (const [method, level] of Object.entries(CONSOLE_LEVELS)) {
    console[method] = (...args) => {
      const error = args.find((arg) => util.types.isNativeError(arg) || arg instanceof Error);
      const text = util.format(...args.filter((arg) => arg !== error)).trim();
      const msg = cut([text, error && `${error.name}: ${error.message}`].filter(Boolean).join(" "));
      if (!msg) return;
      const fields = error ? { error: { name: error.name, message: cut(error.message), stack: cut(String(error.stack)) } } : {};
      writeLine(level, msg, fields);
    };
  }
  // Node's own warnings (deprecations, too many listeners) in place of its two plain lines.
  process.removeAllListeners("warning");
  process.on("warning", (warning) =>
    writeLine("warn", cut(`${warning.name}: ${warning.message}`), warning.code ? { code: warning.code } : {}),
  );
}

module.exports = { log, routeConsoleToLog };
