// `vtr serve`: an emulator bound to a port, with its start-up banner.
import { createEmulator, type EmulatorOptions } from './emulator.js';

export interface ServeConfig extends EmulatorOptions {
  port: number;
  host: string;
  importFile?: string | null;
  exportOnExit?: string | null;
  log?: 'pretty' | 'json';
}

export interface ServeOutput {
  out(line: string): void;
  log(line: string): void;
  json?: boolean;
}

export async function startServer(cfg: ServeConfig, io: ServeOutput) {
  const emulator = createEmulator(cfg);
  let addr: { port: number; host: string };
  try {
    addr = await emulator.listen(cfg.port, cfg.host);
  } catch (err) {
    await emulator.close();
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new Error(`port ${cfg.port} on ${cfg.host} is in use; is another \`vtr serve\` running? Use --port to pick another.`);
    throw err;
  }
  const host = addr.host.includes(':') ? `[${addr.host}]` : addr.host;
  const origin = `http://${host}:${addr.port}`;
  const baseUrl = `${origin}/api/v1`;
  const boot = emulator.bootstrap;
  if (io.json) {
    io.out(JSON.stringify({
      base_url: baseUrl, console_url: `${origin}/`, db: cfg.dbPath, clock: emulator.clock.mode,
      site: boot ? { site_id: boot.site.site_id, site_key: boot.site.site_key, secret_key: boot.site.secret_key, access_token: boot.token.token } : null,
    }));
  } else {
    io.out(`vtr emulator listening on ${origin}`);
    io.out(`  public API   ${baseUrl}`);
    io.out(`  console      ${origin}/`);
    io.out(`  database     ${cfg.dbPath === ':memory:' ? 'in memory (nothing is kept)' : cfg.dbPath}`);
    io.out(`  clock        ${emulator.clock.mode}`);
    if (boot) {
      io.out('');
      io.out(`Created the default site "${boot.site.name}" (${boot.site.site_id}):`);
      io.out(`  site key     ${boot.site.site_key}`);
      io.out(`  secret key   ${boot.site.secret_key}`);
      io.out(`  access token ${boot.token.token}`);
    } else {
      io.out('');
      io.out('Keys: `vtr sites list` and `vtr keys show`; tokens: `vtr tokens list`.');
    }
    if (origin !== 'http://127.0.0.1:8787') io.out(`\nPoint the CLI at it: export VTR_BASE_URL=${baseUrl}`);
  }
  return {
    emulator,
    baseUrl,
    close: () => emulator.close(),
  };
}
