/**
 * A refusal or a mistake the user can fix (unknown remote, percent out of range, lock held, incompatible
 * build). The CLIs print its message as one line on stderr and exit with `exitCode`, never a stack trace;
 * any other error is a bug and is printed the same way but still says it was unexpected.
 */
export class RolloutError extends Error {
  override readonly name = 'RolloutError';
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}
