// The bank-templates command line: parses the command, runs it, and turns every failure into a
// readable message on stderr (and the problem on stdout with --json) and a documented exit code.
import { Command, CommanderError } from "commander";
import { registerApiKeyCommands } from "./commands/api-keys";
import { registerAuthCommands } from "./commands/auth";
import { registerBankCommands } from "./commands/banks";
import { registerPolicyCommands } from "./commands/policy";
import { registerSourceCommands } from "./commands/sources";
import { registerTemplateCommands } from "./commands/templates";
import { registerWebhookCommands } from "./commands/webhooks";
import { CliFailure, ExitCode, usageError } from "./errors";
import { printJson, printProblem } from "./output";

function buildProgram(): Command {
  const program = new Command("bank-templates")
    .description("Manage agent-memory bank templates, sources, banks and policies through the /ext/svc API")
    .option("--json", "print exactly one JSON document on stdout: the API's answer, per-item results, or the problem")
    .configureHelp({ showGlobalOptions: true })
    .showHelpAfterError("(add --help for usage)")
    // Settings are copied to subcommands when they are created, so this comes before them.
    .exitOverride();
  program.addHelpText(
    "after",
    "\nExit codes: 0 ok, 1 refused by the API (4xx), 2 usage error, 3 server unreachable or 5xx, 4 not logged in or key refused (401/403), 5 some items of a bulk command failed, 6 changed by someone else since it was read (nothing written).",
  );
  registerAuthCommands(program);
  registerApiKeyCommands(program);
  registerSourceCommands(program);
  registerTemplateCommands(program);
  registerBankCommands(program);
  registerPolicyCommands(program);
  registerWebhookCommands(program);
  return program;
}

async function main(argv: string[]): Promise<ExitCode> {
  // Known before parsing, so that even a usage error answers in JSON when --json was asked for.
  const json = argv.includes("--json");
  try {
    await buildProgram().parseAsync(argv);
    return (process.exitCode ?? ExitCode.ok) as ExitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander has printed the message or the help already; --help and `help` are successes.
      if (error.exitCode === 0) return ExitCode.ok;
      if (json) printJson(usageError(error.message.replace(/^error: /, "")).problem);
      return ExitCode.usage;
    }
    if (error instanceof CliFailure) {
      printProblem(error.problem);
      if (json) printJson(error.problem);
      return error.exitCode;
    }
    // A bug in the CLI rather than a refusal: show it whole.
    process.stderr.write(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return ExitCode.refused;
  }
}

void main(process.argv).then((code) => {
  process.exitCode = code;
});
