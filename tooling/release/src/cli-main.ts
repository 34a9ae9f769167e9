import { RolloutError } from './errors';

/**
 * Runs a CLI's main function and turns every failure into a message on stderr and an exit code: a
 * RolloutError's own text and code, anything else as one line (no stack trace: the message is what a person
 * acts on). Option errors from node:util parseArgs point at --help.
 */
export async function runMain(
  main: (argv: string[]) => Promise<number>,
  argv = process.argv.slice(2),
): Promise<void> {
  try {
    process.exitCode = await main(argv);
  } catch (error) {
    if (error instanceof RolloutError) {
      console.error(`error: ${error.message}`);
      process.exitCode = error.exitCode;
      return;
    }
    const err = error as NodeJS.ErrnoException;
    const message = (err?.message ?? String(error)).split('\n')[0] as string;
    if (err?.code?.startsWith('ERR_PARSE_ARGS')) {
      // Node's text goes on about positionals starting with '-'; the first sentence is the point.
      console.error(`error: ${message.split('. ')[0]} (see --help)`);
    } else console.error(`error: ${message}`);
    process.exitCode = 1;
  }
}
