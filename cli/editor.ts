// Editing a JSON document in the user's editor ($VISUAL, else $EDITOR, else vi), as `kubectl edit`
// and `git commit` do: the document goes to a file, the editor opens it, the command reads it back.
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { CliFailure, cliProblem, ExitCode, usageError } from "./errors";

/** What the user saved, in a file that is kept when writing it fails, so that no edit is lost. */
export interface Edit {
  edited: unknown;
  /** Writes the edit with `write`: then removes the file, or, when it fails, says where the edit is kept. */
  save<T>(write: (edited: unknown) => Promise<T>): Promise<T>;
}

/** Opens `value` as JSON in the editor; null when the user saved it unchanged (or not at all). */
export async function editJson(value: unknown, name: string): Promise<Edit | null> {
  const dir = await mkdtemp(path.join(tmpdir(), "bank-templates-edit-"));
  const file = path.join(dir, `${name.replace(/[^\w.-]+/g, "-")}.json`);
  const before = `${JSON.stringify(value, null, 2)}\n`;
  await writeFile(file, before, { mode: 0o600 });
  const discard = () => rm(dir, { recursive: true, force: true });
  const editor = process.env.VISUAL || process.env.EDITOR || "vi";
  // Through the shell, as git runs it: EDITOR may carry arguments (`code --wait`).
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(`${editor} "${file}"`, { shell: true, stdio: "inherit" });
    child.on("error", reject);
    child.on("close", resolve);
  });
  if (code !== 0) {
    await discard();
    throw new CliFailure(
      cliProblem("editor-failed", "Editor failed", `${editor} exited with ${code}: nothing was written`),
      ExitCode.usage,
    );
  }
  const after = await readFile(file, "utf8");
  if (after === before) {
    await discard();
    return null;
  }
  try {
    const edited: unknown = JSON.parse(after);
    return {
      edited,
      save: async (write) => {
        try {
          const written = await write(edited);
          await discard();
          return written;
        } catch (error) {
          if (error instanceof CliFailure) error.problem.detail = `${error.problem.detail ?? error.message} Your edit is kept in ${file}.`;
          throw error;
        }
      },
    };
  } catch (error) {
    throw usageError(`What you saved is not JSON (${(error as Error).message}): nothing was written; your edit is kept in ${file}`);
  }
}
