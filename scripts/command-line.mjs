// The command line of every `npm run` tool (start, reset-root-password, import, backup), read the
// same strict way: an option the tool does not know, or a word that is no option's value, stops it
// before it does anything, with the usage on standard error and exit code 2; `--help` or `-h`
// prints the usage and exits 0. Before this, an unknown option was ignored, so
// `npm run reset-root-password -- --help` reset the password. Plain JavaScript, because the
// scripts/*.mjs wrappers read it before anything is built; the server's tools bundle it.
import { parseArgs } from 'node:util';

/** Why the command line was refused, as the one `error: …` line printed above the usage. */
function describe(error) {
  const quoted = /'([^']+)'/.exec(error.message)?.[1] ?? '';
  // `'-h, --help'` and `'--to <value>'` name the option with extra words: keep the long name.
  const option =
    quoted
      .split(', ')
      .at(-1)
      ?.replace(/ <value>$/, '') ?? quoted;
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `error: unknown option ${quoted}`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `error: unexpected argument ${quoted}`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (/does not take an argument/.test(error.message)) return `error: ${option} takes no value`;
      if (/ambiguous/.test(error.message))
        return `error: ${option} needs a value (write ${option}=VALUE for one that starts with a dash)`;
      return `error: ${option} needs a value`;
    default:
      return `error: ${error.message}`;
  }
}

/**
 * Reads `argv` (the words after the script's name) against `options` (util.parseArgs' form, without
 * help, which every tool has). Returns `{ values }` to go on with, or `{ exitCode }` once it has
 * printed: the usage on `io.stdout` for --help (0), or the error and the usage on `io.stderr` (2).
 */
export function readCommandLine(argv, options, usage, io = process) {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    return refuse(error?.code?.startsWith('ERR_PARSE_ARGS') ? describe(error) : `error: ${error.message}`, usage, io);
  }
  if (values.help) {
    io.stdout.write(usage);
    return { exitCode: 0 };
  }
  const { help: _help, ...rest } = values;
  return { values: rest };
}

/** Prints `error` (one line, `error: …`) and the usage on standard error: exit code 2. */
export function refuse(error, usage, io = process) {
  io.stderr.write(`${error}\n\n${usage}`);
  return { exitCode: 2 };
}
