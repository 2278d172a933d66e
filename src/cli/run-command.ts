// Wraps a verb's run(): builds its context, and maps every failure to a message and exit code.
import type { Command } from 'commander';
import { ApiError, ConnectionError, NotEmulatorError } from '../client/api-client.js';
import { canPrompt, resolveConfig, type CliConfig, type CliContext, type CliIO, type GlobalOptions, type Prompter } from './context.js';
import { buildClient, isLocal, otherLoopback } from './credentials.js';
import { exitCodeFor, isPromptCancel, UsageError } from './errors.js';
import { flagTakenAsValue } from './flag-as-value.js';
import { refuseEmpty } from './empty-flag.js';
import { siteByFlagRefusals } from './site-by-flag.js';
import { examplesOf } from './help.js';

export function defaultIO(): CliIO {
  return { stdout: process.stdout, stderr: process.stderr, stdinIsTTY: !!process.stdin.isTTY };
}

export function createContext(globals: GlobalOptions, io: CliIO = defaultIO(), env: NodeJS.ProcessEnv = process.env): CliContext {
  const config = resolveConfig(globals, env, io);
  const interactive = canPrompt(io.stdinIsTTY, !!io.stderr.isTTY, env);
  // The prompt library colours by NO_COLOR (read when it loads): --no-color reaches it that way.
  if (globals.color === false && env === process.env) process.env.NO_COLOR ??= '1';
  const prompter: Prompter = {
    async input(message, opts) {
      if (!interactive) throw new UsageError(message);
      const { input } = await import('@inquirer/prompts');
      return input({ message, default: opts?.default }, { output: io.stderr });
    },
    async confirm(message, opts) {
      if (!interactive) throw new UsageError(`not confirmed, and there is no terminal to ask on ("${message}"): pass --yes to go ahead`);
      const { confirm } = await import('@inquirer/prompts');
      return confirm({ message, default: opts?.default ?? false }, { output: io.stderr });
    },
    async select(message, choices, opts) {
      if (!interactive) throw new UsageError(message);
      const { select } = await import('@inquirer/prompts');
      return select({ message, choices: choices.map((value) => ({ value })), default: opts?.default }, { output: io.stderr });
    },
  };
  return {
    io,
    config,
    interactive,
    prompter,
    client: (needs) => buildClient(config, needs),
    info(line) {
      if (!config.quiet) io.stderr.write(`${line}\n`);
    },
  };
}

/** The scheme, host and port of a URL (the whole text when it is not one). */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url.replace(/\/+$/, '');
  }
}

/** The command that starts an emulator where `baseUrl` points (its port and address, when not the defaults). */
function serveCommandFor(baseUrl: string): string {
  const port = isLocal(baseUrl) ? new URL(baseUrl).port : '';
  const host = otherLoopback(baseUrl);
  return `npx vtr serve${port && port !== '8787' ? ` --port ${port}` : ''}${host ? ` --host ${host}` : ''}`;
}

/** Refused on a loopback address other than the one `vtr serve` binds: most likely it listens on 127.0.0.1. */
function refusedOnOtherLoopback(baseUrl: string, cause: unknown): string | null {
  if ((cause as NodeJS.ErrnoException | null)?.code !== 'ECONNREFUSED' || !otherLoopback(baseUrl)) return null;
  const usual = new URL(baseUrl);
  usual.hostname = '127.0.0.1';
  return `\`vtr serve\` binds 127.0.0.1 unless given --host: point --base-url / VTR_BASE_URL at ${usual.href}, or start it with \`${serveCommandFor(baseUrl)}\`.`;
}

/** The command listing what a "<resource> [id] not found" answer names (most specific first). */
const LIST_COMMANDS: Array<[string, string]> = [
  ['webhook event', 'vtr webhooks events <webhook-id>'],
  ['webhook', 'vtr webhooks list'],
  ['saved view', 'vtr views list'],
  ['rule', 'vtr rules list'],
  ['site', 'vtr sites list'],
  // The public API answers 404 for another site's session (never revealing it): look across sites.
  ['session', 'vtr sessions list --all-sites'],
  ['access token', 'vtr tokens list'],
  ['request log entry', 'vtr logs list'],
];

/** Ids of one kind pasted where the other is asked for (`webhooks event wh_…`): which they are, and their command. */
const OTHER_KIND: Array<[string, string, string, (id: string) => string]> = [
  ['webhook event', 'wh_', 'webhook', (id) => `its events are \`vtr webhooks events ${id}\``],
  ['webhook', 'msg_', 'webhook event', (id) => `see \`vtr webhooks event ${id}\``],
];

function otherKindHint(message: string): string | null {
  for (const [resource, prefix, kind, command] of OTHER_KIND) {
    const id = new RegExp(`^${resource} (${prefix}\\S+) not found$`).exec(message)?.[1];
    if (id) return `${id} is a ${kind} id, not a ${resource} id: ${command(id)}`;
  }
  return null;
}

function listCommandFor(message: string): string | null {
  for (const [resource, command] of LIST_COMMANDS) {
    // The id bare, or quoted when it holds a space or an invisible character (shownId).
    if (new RegExp(`^${resource}( "(?:[^"\\\\]|\\\\.)*"| \\S+)? not found$`).test(message)) return command;
  }
  return null;
}

/** ": ENOTFOUND (getaddrinfo ENOTFOUND host)" for a network error; "" when there is none. */
function causeOf(cause: unknown): string {
  if (!(cause instanceof Error)) return '';
  const code = (cause as NodeJS.ErrnoException).code;
  if (code && !cause.message.includes(code)) return `: ${code} (${cause.message})`;
  return `: ${cause.message}`;
}

/** An https:// request that a plain-HTTP server answered (OpenSSL reads its reply as a bad TLS record). */
function plainHttpAnswer(baseUrl: string, cause: unknown): boolean {
  return /^https:/i.test(baseUrl) && cause instanceof Error && (cause as NodeJS.ErrnoException).code === 'EPROTO' && /wrong version number/.test(cause.message);
}

/**
 * Which setting to check after a 401: the admin token for the management API (named once: the
 * emulator's message may already name the flag), else the public API's credentials.
 */
function credentialHint(message: string, config: Pick<CliConfig, 'credentialsFromEnv'>): string {
  if (/admin token/.test(message)) return message.includes('VTR_ADMIN_TOKEN') ? '' : '. Check --admin-token (or VTR_ADMIN_TOKEN).';
  // Set once (by `vtr exec`, or an export) and easy to forget: a rotation since leaves it stale.
  const fromEnv = config.credentialsFromEnv ?? [];
  if (fromEnv.length) {
    const flags = fromEnv.map((name) => (name === 'VTR_SECRET_KEY' ? '--secret-key' : '--token')).join(' / ');
    const one = fromEnv.length === 1;
    return `. ${fromEnv.join(' and ')} came from the environment, which a \`vtr keys rotate\` or \`vtr tokens revoke\` since ${one ? 'it was' : 'they were'} set does not change: unset ${one ? 'it' : 'them'} (on a local emulator the site's current ${one ? 'one is' : 'ones are'} then used), or give ${flags}.`;
  }
  return '. Check --token / --secret-key (or VTR_ACCESS_TOKEN / VTR_SECRET_KEY).';
}

/** Turns an error into a message on stderr and returns the exit code. */
export function reportError(ctx: Pick<CliContext, 'io' | 'config'>, err: unknown): number {
  const code = exitCodeFor(err);
  if (isPromptCancel(err)) {
    ctx.io.stderr.write('vtr: cancelled\n');
    return code;
  }
  let message: string;
  if (err instanceof ConnectionError && err.timeoutMs !== null) {
    // It took the request, so it is running: starting it would not help.
    message = `${err.message}: it is busy or stuck (its output may say why); try again, or restart it`;
  } else if (err instanceof ConnectionError && err.cutOff) {
    // It took the request: it stopped or was killed meanwhile (an answered write is committed; this one was not answered).
    const restart = isLocal(ctx.config.baseUrl) ? `start it again with \`${serveCommandFor(ctx.config.baseUrl)}\`` : null;
    const hint = [err.write ? 'check what the request would have changed before sending it again' : null, restart].filter(Boolean).join('; ');
    message = `${err.message}. Did it stop?${hint ? ` ${hint[0].toUpperCase()}${hint.slice(1)}.` : ''}`;
  } else if (err instanceof ConnectionError && plainHttpAnswer(ctx.config.baseUrl, err.cause)) {
    // It is running (`vtr serve` speaks plain HTTP): starting it would not help; the scheme is wrong.
    const http = ctx.config.baseUrl.replace(/^https:/i, 'http:');
    message = `${err.url} answered in plain HTTP, not TLS: use ${http} (--base-url / VTR_BASE_URL)`;
  } else if (err instanceof ConnectionError && !isLocal(ctx.config.baseUrl)) {
    // Not this machine: starting a local emulator would not help; the URL (or the network) is the suspect.
    message = `cannot reach ${err.url}${causeOf(err.cause)}. Check --base-url / VTR_BASE_URL (now ${ctx.config.baseUrl}).`;
  } else if (err instanceof ConnectionError) {
    const otherAddress = refusedOnOtherLoopback(ctx.config.baseUrl, err.cause);
    message = otherAddress
      ? `${err.message}. ${otherAddress}`
      : `${err.message}. Is it running? Start it with \`${serveCommandFor(ctx.config.baseUrl)}\`, or point --base-url / VTR_BASE_URL at it.`;
  } else if (err instanceof NotEmulatorError) {
    // Something answers there, but not vtr: another server on the port, a web page, a proxy.
    message = `${err.message}. Check --base-url / VTR_BASE_URL (now ${ctx.config.baseUrl}).`;
  } else if (err instanceof ApiError) {
    message = `${err.message} (HTTP ${err.status}, ${err.code})`;
    // The site came from --site or VTR_SITE: say which (a VTR_SITE left in the environment is easy to forget).
    if (err.status === 404 && ctx.config.site && err.message === `site ${ctx.config.site} not found`) message = `${ctx.config.siteFrom}: ${message}`;
    if (err.status === 401 && err.code === 'unauthorized') message += credentialHint(err.message, ctx.config);
    const otherKind = err.status === 404 && err.code === 'not_found' ? otherKindHint(err.message) : null;
    const list = err.status === 404 && err.code === 'not_found' && !otherKind ? listCommandFor(err.message) : null;
    if (otherKind) message += `; ${otherKind}`;
    if (list) message += `; see \`${list}\``;
    if (list?.startsWith('vtr sessions ')) message += ' (a session of another site needs --site <site-id>)';
    // A base URL without the version segment reaches the emulator but none of the public API's routes.
    if (err.status === 404 && message.startsWith('no route for') && !/\/api\/v1\/?$/.test(ctx.config.baseUrl)) {
      message += `. --base-url / VTR_BASE_URL must be the public API base, ending in /api/v1 (e.g. ${originOf(ctx.config.baseUrl)}/api/v1)`;
    }
  } else if (err instanceof Error) {
    message = err.message;
  } else {
    message = String(err);
  }
  // --fail-on reached is the outcome the script asked about, not an error.
  const prefix = code === 2 ? 'usage error: ' : code === 3 ? '' : 'error: ';
  ctx.io.stderr.write(`vtr: ${prefix}${message}\n`);
  if (code === 2 && !(err instanceof UsageError)) ctx.io.stderr.write('Run `vtr --help` for usage.\n');
  return code;
}

/**
 * A 400 about a field that came from one of the command's flags (`owner_email` from
 * `--owner-email`, when given) or arguments (`rule_id` from `<rule-id>`) is refused input, a usage
 * error: exit 2, naming the flag or argument, as the CLI's own checks do. Anything else (a field
 * from a --data file, a flag not given) stays the server's error.
 */
export function asUsageError(err: unknown, cmd: Pick<Command, 'options' | 'getOptionValue' | 'registeredArguments'>, args: unknown[] = []): unknown {
  if (!(err instanceof ApiError) || err.status !== 400 || err.code !== 'invalid_request') return err;
  const field = typeof err.body.field === 'string' ? err.body.field : '';
  const head = field.split('.')[0];
  const attr = head.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
  const option = cmd.options.find((o) => o.attributeName() === attr);
  const index = cmd.registeredArguments.findIndex((a) => a.name() === head.replaceAll('_', '-'));
  let name: string, value: unknown;
  if (option?.long && cmd.getOptionValue(attr) !== undefined) [name, value] = [option.long, cmd.getOptionValue(attr)];
  // An argument's entries are a variadic one's values, never a comma-separated text.
  else if (head && index !== -1 && args[index] !== undefined) [name, value] = [`<${cmd.registeredArguments[index].name()}>`, Array.isArray(args[index]) ? args[index] : null];
  else return err;
  const detail = err.message.startsWith(`${field}: `) ? err.message.slice(field.length + 2) : err.message;
  const entry = entryOf(value, field);
  // `excluded_countries.1` of `--excluded-countries us,XX`: the entry is named, unless the message quotes it.
  const named = entry === null || detail.includes(JSON.stringify(entry)) ? '' : `${JSON.stringify(entry)}: `;
  return new UsageError(`${name}: ${named}${detail}`);
}

/** The entry a field's index (`excluded_countries.1`) points at: in a repeated flag's values, or a comma-separated one's. */
function entryOf(value: unknown, field: string): string | null {
  const index = /^[^.]+\.(\d+)/.exec(field)?.[1];
  if (index === undefined) return null;
  const entries = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',').map((s) => s.trim()).filter(Boolean) : [];
  const entry: unknown = entries[Number(index)];
  return typeof entry === 'string' ? entry : null;
}

/** Arguments that are values the API takes as given, not ids: blank is not empty for them. */
const FREE_TEXT = new Set(['name']);

/** `vtr exec`'s command: only its program must be named; its own arguments (`''` too) are passed on as given. */
const PASSED_ON = new Set(['command']);

/** Flags that pick one webhook, session, view, status or visitor fingerprint. */
const ID_FLAGS = new Set(['--webhook', '--session', '--view', '--status', '--fingerprint']);

/** `vtr clock advance`: the words a user typed for a verb. */
export function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** The arguments of a command's first example (`site_123` of `vtr sites delete site_123`): what a prompt for one shows. */
function exampleArgs(cmd: Command): string[] {
  const path = commandPath(cmd);
  const line = examplesOf(cmd).find((l) => l.startsWith(`${path} `));
  if (!line) return [];
  const words = line.slice(path.length).trim().split(/\s+/);
  const flag = words.findIndex((w) => w.startsWith('-') || w.startsWith('#'));
  return flag === -1 ? words : words.slice(0, flag);
}

/** Global flags a verb refuses rather than ignore: each one's flag and why (the usage error says both). */
export type RefusedGlobals = Partial<Record<'baseUrl' | 'json' | 'secretKey' | 'token', [flag: string, why: string]>>;

/**
 * The action for a verb: run(options, ctx) with the command's options merged over the globals.
 * `siteless` says why the verb has no site to pick (it acts on the whole emulator, or on none): an
 * explicit --site is then refused rather than ignored. VTR_SITE, which `vtr exec` always sets, is not.
 */
export function action<O>(
  load: () => Promise<{ run: (opts: O, ctx: CliContext) => Promise<void> }>,
  scope: { siteless?: string; refuses?: RefusedGlobals } = {},
) {
  return async function (this: Command, ...args: unknown[]) {
    const cmd = args[args.length - 1] as Command;
    const positional = args.slice(0, -2);
    const opts = { ...cmd.optsWithGlobals(), args: positional } as O & GlobalOptions;
    const ctx = createContext(opts);
    try {
      const taken = flagTakenAsValue(cmd);
      if (taken) throw new UsageError(taken);
      // `--site "$SITE"` with SITE unset must not fall back to the default site (nor its keys).
      for (const [flag, value] of [['--site', opts.site], ['--secret-key', opts.secretKey], ['--token', opts.token], ['--admin-token', opts.adminToken]] as const) refuseEmpty(flag, value);
      // Left out, these mean "every one" or "a new one": given empty, they are a mistake, not that.
      for (const option of cmd.options) if (option.long && ID_FLAGS.has(option.long)) refuseEmpty(option.long, cmd.getOptionValue(option.attributeName()));
      if (scope.siteless && opts.site !== undefined) throw new UsageError(`--site: \`${commandPath(cmd)}\` ${scope.siteless}; leave --site out`);
      const refuses: RefusedGlobals = { ...siteByFlagRefusals(cmd, commandPath(cmd)), ...scope.refuses };
      for (const [key, [flag, why]] of Object.entries(refuses) as Array<[keyof RefusedGlobals, [string, string]]>) {
        if (opts[key] !== undefined) throw new UsageError(`${flag}: ${why}`);
      }
      // Required arguments left out on a terminal (see program.ts) are asked for here.
      for (const [i, arg] of cmd.registeredArguments.entries()) {
        if (!arg.required || positional[i] !== undefined) continue;
        const example = exampleArgs(cmd)[i];
        positional[i] = await ctx.prompter.input(`${arg.description || arg.name()}${example ? ` (e.g. ${example})` : ''}`);
      }
      // An empty id would reach the server as a different route (`/sites/`) and answer a puzzling 404.
      // Free text (a custom event's <name>) is the verb's to check: the API takes a name of spaces.
      for (const [i, arg] of cmd.registeredArguments.entries()) {
        if (FREE_TEXT.has(arg.name())) continue;
        const given = positional[i];
        const checked = Array.isArray(given) ? (PASSED_ON.has(arg.name()) ? given.slice(0, 1) : given) : [given];
        if (checked.some((v) => typeof v === 'string' && v.trim() === '')) {
          throw new UsageError(`<${arg.name()}>: must not be empty`);
        }
      }
      const { run } = await load();
      await run(opts, ctx);
    } catch (err) {
      process.exitCode = reportError(ctx, asUsageError(err, cmd, positional));
    }
  };
}
