/**
 * What the operator typed, checked before anything is opened: the commands, their arguments
 * and options, and the usage text. A command line that is wrong is a UsageError (exit 2); a
 * command that is well formed but fails (unknown shop, bad value) is a CliError (exit 1).
 */
import { parseArgs } from 'node:util';

/** A failure the operator can fix; printed as its message alone, never with a stack. */
export class CliError extends Error {
  override name = 'CliError';
  readonly exitCode: 1 | 2 = 1;
}

/** The command line itself is wrong: exit 2, like most Unix tools. */
export class UsageError extends CliError {
  override name = 'UsageError';
  override readonly exitCode = 2;
}

type OptionName = 'domain' | 'plan' | 'currency' | 'timezone' | 'name' | 'key' | 'origin' | 'access-token';

type CommandSpec = {
  args: readonly string[];
  options: readonly OptionName[];
  /** Options without which the command line is wrong (exit 2, before anything is opened). */
  required?: readonly OptionName[];
  usage: string;
  about: string;
};

export const COMMANDS = {
  'shop:create': {
    args: [],
    options: ['domain', 'plan', 'currency', 'timezone', 'key', 'name'],
    required: ['domain', 'plan'],
    usage: 'shop:create --domain <domain> --plan <free|growth|pro|scale> [--currency USD] [--timezone UTC] [--key [--name <name>]]',
    about: 'creates a shop; --key also creates its first API key and prints it last',
  },
  'shop:list': { args: [], options: [], usage: 'shop:list', about: 'lists every shop, oldest first' },
  'shop:show': { args: ['shopId'], options: [], usage: 'shop:show <shopId>', about: 'prints one shop' },
  'shop:plan': {
    args: ['shopId', 'plan'],
    options: [],
    usage: 'shop:plan <shopId> <free|growth|pro|scale>',
    about: "changes a shop's plan",
  },
  'key:create': { args: ['shopId'], options: ['name'], usage: 'key:create <shopId> [--name <name>]', about: 'creates an API key' },
  'key:list': { args: ['shopId'], options: [], usage: 'key:list <shopId>', about: "lists a shop's live keys (never the keys themselves)" },
  'key:revoke': { args: ['shopId', 'keyId'], options: [], usage: 'key:revoke <shopId> <keyId>', about: 'revokes a key; it then gets 401' },
  'shop:login-link': {
    args: ['shopId'],
    options: [],
    usage: 'shop:login-link <shopId>',
    about: "prints a one-time link to the shop's merchant admin (valid 15 minutes, usable once)",
  },
  'storefront-token:create': {
    args: ['shopId'],
    options: ['origin'],
    required: ['origin'],
    usage: 'storefront-token:create <shopId> --origin <https://host[,https://other…]>',
    about: 'creates a publishable storefront token (spk_…) for headless pages on those origins',
  },
  'shop:connect': {
    args: ['shopId'],
    options: ['access-token'],
    required: ['access-token'],
    usage: 'shop:connect <shopId> --access-token <shpat_…>',
    about: "stores the shop's platform Admin API access token (sealed; needs PLATFORM_APP_SECRET): the discount sync then writes to the platform",
  },
  'shop:disconnect': {
    args: ['shopId'],
    options: [],
    usage: 'shop:disconnect <shopId>',
    about: "forgets the shop's platform access token; syncs are then only recorded",
  },
} as const satisfies Record<string, CommandSpec>;

export type CommandName = keyof typeof COMMANDS;

export const USAGE = `Usage: npm run cli -- <command> [arguments] [--json]

Commands:
${Object.values(COMMANDS)
  .map((c: CommandSpec) => `  ${c.usage}\n      ${c.about}`)
  .join('\n')}
  help, --help, -h
      prints this text; <command> --help prints that command's
  --version
      prints the service's version

Every command prints JSON instead of text with --json. Exit codes: 0 done, 1 the command
failed (the message says why), 2 the command line is wrong.

Uses DATABASE_URL or DATA_DIR like the server. With the embedded database, stop the server
first (one process per data directory) or use the admin API instead. API keys work only for
shops on the Scale plan.`;

export type CommandLine =
  | { kind: 'help' }
  | { kind: 'command-help'; text: string }
  | { kind: 'version' }
  | {
      kind: 'command';
      name: CommandName;
      /** The positional arguments by the names of COMMANDS[name].args. */
      args: Record<string, string>;
      options: Partial<Record<Exclude<OptionName, 'key'>, string>> & { key: boolean };
      json: boolean;
    };

const SEE_HELP = 'Run `npm run cli -- help` for the list of commands.';

const isCommandName = (name: string): name is CommandName => Object.hasOwn(COMMANDS, name);

/**
 * Parses argv (without node and the script). Help anywhere on the line wins, so
 * `shop:create --help` prints the usage instead of complaining about missing options.
 *
 * @example
 *   parseCommandLine(['key:list', 'shp_1', '--json']); // { kind: 'command', name: 'key:list', args: { shopId: 'shp_1' }, … }
 */
export function parseCommandLine(argv: readonly string[]): CommandLine {
  const help = argv.includes('--help') || argv.includes('-h');
  const first = argv[0] ?? '';
  if (help && isCommandName(first)) return { kind: 'command-help', text: commandHelp(first) };
  if (argv.length === 0 || help || first === 'help') return { kind: 'help' };
  if (first === '--version' || first === '-v') return { kind: 'version' };
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        domain: { type: 'string' },
        plan: { type: 'string' },
        currency: { type: 'string' },
        timezone: { type: 'string' },
        name: { type: 'string' },
        origin: { type: 'string' },
        'access-token': { type: 'string' },
        key: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    throw new UsageError(`${parseErrorText(error)} ${SEE_HELP}`);
  }
  const { positionals, values } = parsed;
  const [name, ...rest] = positionals;
  if (name === undefined) throw new UsageError(`No command given. ${SEE_HELP}`);
  if (!isCommandName(name)) throw new UsageError(`Unknown command "${name}". ${SEE_HELP}`);
  const spec: CommandSpec = COMMANDS[name];
  const usage = `Usage: npm run cli -- ${spec.usage}`;
  if (rest.length < spec.args.length) {
    const missing = spec.args.slice(rest.length).map((arg) => `<${arg}>`);
    throw new UsageError(`${name} needs ${missing.join(' and ')}. ${usage}`);
  }
  if (rest.length > spec.args.length) throw new UsageError(`Unexpected argument "${rest[spec.args.length]}". ${usage}`);
  for (const option of ['domain', 'plan', 'currency', 'timezone', 'name', 'key', 'origin', 'access-token'] as const) {
    const given = option === 'key' ? values.key === true : values[option] !== undefined;
    if (given && !spec.options.includes(option)) throw new UsageError(`${name} takes no --${option} option. ${usage}`);
  }
  for (const option of spec.required ?? []) {
    if (values[option] === undefined) throw new UsageError(`${name} needs --${option}. ${usage}`);
  }
  const { domain, plan, currency, timezone, name: keyName, origin, 'access-token': accessToken } = values;
  return {
    kind: 'command',
    name,
    args: Object.fromEntries(spec.args.map((arg, index) => [arg, rest[index] ?? ''])),
    options: {
      key: values.key === true,
      ...(domain === undefined ? {} : { domain }),
      ...(plan === undefined ? {} : { plan }),
      ...(currency === undefined ? {} : { currency }),
      ...(timezone === undefined ? {} : { timezone }),
      ...(keyName === undefined ? {} : { name: keyName }),
      ...(origin === undefined ? {} : { origin }),
      ...(accessToken === undefined ? {} : { 'access-token': accessToken }),
    },
    json: values.json === true,
  };
}

/** One command's usage and what it does (`npm run cli -- <command> --help`). */
function commandHelp(name: CommandName): string {
  const spec: CommandSpec = COMMANDS[name];
  return `Usage: npm run cli -- ${spec.usage} [--json]\n\n${spec.about[0]?.toUpperCase() ?? ''}${spec.about.slice(1)}.\n\nExit codes: 0 done, 1 the command failed (the message says why), 2 the command line is wrong.`;
}

// node:util's own messages explain `--` escaping at length; these say what is wrong.
function parseErrorText(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  const option = /'(-[^' ]+)/.exec(message)?.[1] ?? '';
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `Unknown option ${option}.`;
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    return message.includes('does not take') ? `Option ${option} takes no value.` : `Option ${option} needs a value.`;
  }
  return `${message}.`;
}
