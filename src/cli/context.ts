// What every command's run() gets: IO streams, resolved config, a lazily built client, a prompter.
import type { Writable } from 'node:stream';
import type { ApiClient } from '../client/api-client.js';

export interface CliIO {
  stdout: Writable & { isTTY?: boolean };
  stderr: Writable & { isTTY?: boolean };
  stdinIsTTY: boolean;
}

export interface GlobalOptions {
  baseUrl?: string;
  json?: boolean;
  color?: boolean;
  quiet?: boolean;
  secretKey?: string;
  token?: string;
  adminToken?: string;
  site?: string;
}

export interface CliConfig {
  baseUrl: string;
  /** Where `baseUrl` came from, for messages: the flag or the environment. */
  baseUrlFrom: '--base-url' | 'VTR_BASE_URL';
  json: boolean;
  quiet: boolean;
  /** Colour on stdout: it is a terminal, and no NO_COLOR / --no-color. */
  color: boolean;
  /** The same for stderr, which may go elsewhere (`2>log`) while stdout is a terminal, or the reverse. */
  stderrColor?: boolean;
  secretKey: string | null;
  accessToken: string | null;
  adminToken: string | null;
  site: string | null;
  /** Where `site` came from, for messages: the flag or the environment. */
  siteFrom: '--site' | 'VTR_SITE';
  /** The public API credentials in use that the environment gave (none when a credential flag was given), for messages. */
  credentialsFromEnv?: Array<'VTR_SECRET_KEY' | 'VTR_ACCESS_TOKEN'>;
}

export interface Prompter {
  input(message: string, opts?: { default?: string }): Promise<string>;
  confirm(message: string, opts?: { default?: boolean }): Promise<boolean>;
  select<T extends string>(message: string, choices: T[], opts?: { default?: T }): Promise<T>;
}

export interface CliContext {
  io: CliIO;
  config: CliConfig;
  /** True when prompts may be used: stdin and stderr are terminals (with or without --json; prompts go to stderr). */
  interactive: boolean;
  /** A client with the credentials resolved (flag > env > the local emulator's default site). */
  client(needs?: { token?: boolean; secretKey?: boolean }): Promise<ApiClient>;
  prompter: Prompter;
  /** Writes a line to stderr unless --quiet. */
  info(line: string): void;
}

export const DEFAULT_BASE_URL = 'http://127.0.0.1:8787/api/v1';

/** Prompts and confirmations need a terminal to read from and write to (stderr), and no CI; --json does not matter. */
export const canPrompt = (stdinIsTTY: boolean, stderrIsTTY: boolean, env: NodeJS.ProcessEnv): boolean => stdinIsTTY && stderrIsTTY && !env.CI;

export function resolveConfig(given: GlobalOptions, env: NodeJS.ProcessEnv, io: CliIO): CliConfig {
  // Line endings and spaces around a key, token or site id (`$(cat key.txt)` of a CRLF file, a
  // paste) are not part of it: sent, they would read as a rotated key or a server that is down.
  const g = { ...given, secretKey: given.secretKey?.trim(), token: given.token?.trim(), adminToken: given.adminToken?.trim(), site: given.site?.trim() };
  const json = !!g.json;
  // no-color.org: NO_COLOR counts when set to a non-empty value.
  const noColor = g.color === false || !!env.NO_COLOR || env.TERM === 'dumb';
  // An empty VTR_BASE_URL (a CI variable left blank) counts as unset, as every other VTR_* does.
  // Spaces around a URL (pasted, a .env line) are not part of it: request paths are appended to it.
  const envBaseUrl = env.VTR_BASE_URL?.trim() || undefined;
  // A blank one is kept as given: the usage error says it is blank rather than quoting "".
  const flagBaseUrl = g.baseUrl === undefined ? undefined : g.baseUrl.trim() || g.baseUrl;
  // The environment's credentials are for the environment's server (`vtr exec` sets both): a
  // --base-url naming another server gets only what the flags give, never those keys.
  const envCreds = flagBaseUrl !== undefined && envBaseUrl !== undefined && !sameServer(flagBaseUrl, envBaseUrl) ? {} : env;
  const creds = { VTR_SECRET_KEY: bare(envCreds.VTR_SECRET_KEY), VTR_ACCESS_TOKEN: bare(envCreds.VTR_ACCESS_TOKEN), VTR_ADMIN_TOKEN: bare(envCreds.VTR_ADMIN_TOKEN), VTR_SITE: bare(envCreds.VTR_SITE) };
  const secretKey = g.secretKey ?? (g.site ? null : creds.VTR_SECRET_KEY) ?? null;
  const accessToken = g.token ?? (g.site || g.secretKey ? null : creds.VTR_ACCESS_TOKEN) ?? null;
  const fromEnv = g.secretKey === undefined && g.token === undefined
    ? ([[secretKey, 'VTR_SECRET_KEY'], [accessToken, 'VTR_ACCESS_TOKEN']] as const).filter(([v]) => v !== null).map(([, name]) => name)
    : [];
  return {
    baseUrl: flagBaseUrl ?? envBaseUrl ?? DEFAULT_BASE_URL,
    baseUrlFrom: flagBaseUrl === undefined && envBaseUrl !== undefined ? 'VTR_BASE_URL' : '--base-url',
    json,
    quiet: !!g.quiet,
    color: !noColor && !!io.stdout.isTTY,
    stderrColor: !noColor && !!io.stderr.isTTY,
    // A flag beats the environment: --site picks its own site's keys over the environment's (which
    // `vtr exec` always sets, for the default site); --secret-key / --token still win over both.
    // --secret-key is also the session API's bearer: the environment's token (maybe another site's)
    // must not take its place.
    secretKey,
    accessToken,
    credentialsFromEnv: fromEnv,
    adminToken: g.adminToken ?? creds.VTR_ADMIN_TOKEN ?? null,
    site: g.site ?? creds.VTR_SITE ?? null,
    siteFrom: g.site ? '--site' : 'VTR_SITE',
  };
}

/** Whether two base URLs name one server (scheme, host and port); an unparsable one is another. */
function sameServer(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return a === b;
  }
}

/** A credential from the environment without the white space around it; empty counts as unset. */
export const bare = (value: string | undefined): string | undefined => value?.trim() || undefined;
