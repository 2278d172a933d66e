// `vtr exec` through the built CLI as a CI job runs it (serve's start-up edges: serve-start.test.ts).
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { createServer as createHttpServer } from 'node:http';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { busyPort, closeBusyPorts } from '../helpers/busy-port.js';
import { CLI, runCli, startServer, tempDir, type ServerProcess } from '../helpers/vtr-process.js';

const node = JSON.stringify(process.execPath);
const vtr = `${node} ${JSON.stringify(CLI)}`;
const servers: ServerProcess[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
  await closeBusyPorts();
});

/** Runs a Node script as the exec'd command. */
const script = (code: string) => ['exec', '--', process.execPath, '-e', code];

describe('vtr exec', () => {
  it('exec: the command gets the emulator and the default site in its environment, and its exit code is vtr\'s', async () => {
    const cwd = tempDir();
    const r = await runCli(script(`
      const e = process.env;
      console.log(JSON.stringify({ base: e.VTR_BASE_URL, secret: e.VTR_SECRET_KEY, siteKey: e.VTR_SITE_KEY, token: e.VTR_ACCESS_TOKEN, site: e.VTR_SITE }));
      process.exit(7);`), { cwd });
    expect(r.code).toBe(7);
    const env = JSON.parse(r.stdout.trim()) as Record<string, string>;
    expect(env.base).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    expect(env.base).not.toContain(':8787/');
    expect(env.secret).toMatch(/^sk_test_/);
    expect(env.siteKey).toMatch(/^pk_test_/);
    expect(env.token).toMatch(/^at_test_/);
    expect(env.site).toMatch(/^site_/);
    // In memory: the emulator leaves nothing in the working directory.
    expect(readdirSync(cwd)).toEqual([]);
    // Its own output stays off the command's stdout (no banner).
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
  });

  it('exec: the command talks to its own emulator, never to another server the environment points at', async () => {
    const dev = await startServer(['--memory']);
    servers.push(dev);
    const r = await runCli(['exec', '--', 'sh', '-c', `${vtr} check --ip 203.0.113.7 --json`], { env: dev.env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).risk_level).toBe('invalid');
    // The developer's emulator saw nothing.
    const checks = await fetch(`${dev.origin}/_vtr/api/checks`).then((res) => res.json());
    expect(checks).toEqual([]);
  });

  it('exec: a default site without a live token gets no access token from the shell\'s environment', async () => {
    const db = join(tempDir(), 'vtr.db');
    const revoke = await runCli(['exec', '--db', db, '--', 'sh', '-c', `${vtr} tokens revoke "$VTR_ACCESS_TOKEN" --yes`]);
    expect(revoke.code, revoke.stderr).toBe(0);
    const r = await runCli(['exec', '--db', db, '--', 'sh', '-c', 'echo "token=${VTR_ACCESS_TOKEN:-none}"'], { env: { VTR_ACCESS_TOKEN: 'at_test_of_another_server' } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('token=none');
  });

  it('exec: --secret-key given to a session command beats the VTR_ACCESS_TOKEN exec set for the default site', async () => {
    const sh = [
      `other=$(${vtr} sites create --name Other --json)`,
      `sk=$(echo "$other" | ${node} -pe 'JSON.parse(require("fs").readFileSync(0)).secret_key')`,
      `site=$(echo "$other" | ${node} -pe 'JSON.parse(require("fs").readFileSync(0)).site_id')`,
      `ses=$(${vtr} sessions create --site "$site" --json | ${node} -pe 'JSON.parse(require("fs").readFileSync(0)).session_id')`,
      `${vtr} session event "$ses" signup --secret-key "$sk" --quiet --json >/dev/null || exit 9`,
      `${vtr} session get "$ses" --secret-key "$sk" --json`,
    ].join(' && ');
    const r = await runCli(['exec', '--', 'sh', '-c', sh]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ custom_events: ['signup'] });
  });

  it('exec: after `vtr state reset --yes` in the command, the variables exec set still work', async () => {
    const sh = [
      `${vtr} sessions create --quiet >/dev/null || exit 3`,
      `${vtr} state reset --yes --json > reset.json || exit 4`,
      `${vtr} sessions create --quiet >/dev/null || exit 5`,
      `${vtr} check --ip 192.0.2.1 --quiet >/dev/null || exit 6`,
      `${vtr} sessions list --json > sessions.json || exit 7`,
      'echo "$VTR_SITE $VTR_SITE_KEY $VTR_SECRET_KEY $VTR_ACCESS_TOKEN" > env.txt',
    ].join(' && ');
    const cwd = tempDir();
    const r = await runCli(['exec', '--', 'sh', '-c', sh], { cwd });
    expect(r.code, r.stderr).toBe(0);
    const [site, siteKey, secretKey, token] = readFileSync(join(cwd, 'env.txt'), 'utf8').trim().split(' ');
    expect(JSON.parse(readFileSync(join(cwd, 'reset.json'), 'utf8'))).toMatchObject({
      reset: true,
      site: { site_id: site, site_key: siteKey, secret_key: secretKey },
      access_token: token,
    });
    // The session made before the reset is gone; the one made after is on the same site.
    expect(JSON.parse(readFileSync(join(cwd, 'sessions.json'), 'utf8'))).toEqual([expect.objectContaining({ site_id: site })]);
  });

  it('exec: a command ended by a signal gives 128 + its number', async () => {
    const r = await runCli(['exec', '--', 'sh', '-c', 'kill -TERM $$']);
    expect(r.code).toBe(143);
  });

  it('exec: SIGTERM to vtr reaches the command, and vtr exits with its code', async () => {
    const child = spawn(process.execPath, [CLI, ...script(`
      process.on('SIGTERM', () => { console.log('got SIGTERM'); process.exit(5); });
      setInterval(() => {}, 1000);
      console.log('ready');`)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    await new Promise<void>((resolve) => child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('ready')) resolve();
    }));
    const code = await new Promise<number | null>((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGTERM');
    });
    expect(code).toBe(5);
    expect(out).toContain('got SIGTERM');
  });

  it('exec: SIGHUP (the terminal closed) reaches the command, and the emulator still writes --export-on-exit before vtr ends', async () => {
    const file = join(tempDir(), 'state.json');
    const child = spawn(process.execPath, [CLI, 'exec', '--export-on-exit', file, '--', process.execPath, '-e', `
      process.on('SIGHUP', () => { console.log('got SIGHUP'); process.exit(7); });
      setInterval(() => {}, 1000);
      console.log('ready');`], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    await new Promise<void>((resolve) => child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('ready')) resolve();
    }));
    const signal = await new Promise<NodeJS.Signals | null>((resolve) => {
      child.once('exit', (_code, sig) => resolve(sig));
      child.kill('SIGHUP');
    });
    // Then vtr dies of the hang-up itself, as a program whose terminal went away does.
    expect(signal).toBe('SIGHUP');
    expect(out).toContain('got SIGHUP');
    expect(existsSync(file)).toBe(true);
  });

  it('exec: a second SIGTERM while the emulator finishes a delivery does not cut it short (exit code kept, export written)', async () => {
    // A receiver that holds the delivery until told to answer.
    let release: () => void = () => {};
    let received: () => void = () => {};
    const arrived = new Promise<void>((resolve) => (received = resolve));
    const receiver = createHttpServer((req, res) => {
      req.resume();
      received();
      release = () => res.end('ok');
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const hook = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
    const file = join(tempDir(), 'state.json');
    try {
      const command = `${vtr} webhooks create --url ${hook} >/dev/null 2>&1 && `
        + `${vtr} views create --name all --filter "page_views >= 1" --trigger-webhooks >/dev/null 2>&1 && `
        + `${vtr} sessions create >/dev/null 2>&1 && trap 'echo bye; exit 0' TERM && echo "ready $VTR_BASE_URL" && while true; do sleep 0.1; done`;
      const child = spawn(process.execPath, [CLI, 'exec', '--export-on-exit', file, '--', 'sh', '-c', command], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      const said = (word: string) => new Promise<void>((resolve) => {
        const check = () => out.includes(word) && resolve();
        child.stdout.on('data', (d) => ((out += d), check()));
        check();
      });
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      await Promise.all([said('ready'), arrived]);
      child.kill('SIGTERM'); // the command ends; the emulator waits for the delivery in flight
      await said('bye');
      // The emulator is closing once it refuses new connections (the delivery still held). A new
      // socket each time: a pooled keep-alive one would still be answered while it closes.
      const port = Number(new URL(/ready (\S+)/.exec(out)![1]).port);
      const listening = () => new Promise<boolean>((resolve) => {
        const socket = connect(port, '127.0.0.1', () => (socket.destroy(), resolve(true)));
        socket.once('error', () => resolve(false));
      });
      while (await listening()) await new Promise((r) => setTimeout(r, 20));
      child.kill('SIGTERM');
      release();
      expect(await exited).toBe(0);
      expect(existsSync(file)).toBe(true);
    } finally {
      receiver.close();
    }
  });

  it('exec: an emulator that cannot start is exit 1 with its reason, and the command does not run', async () => {
    const cwd = tempDir();
    const port = await busyPort();
    const r = await runCli(['exec', '--port', String(port), '--', process.execPath, '-e', "require('fs').writeFileSync('ran', '')"], { cwd });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`port ${port}`);
    expect(r.stderr).toContain('--port 0');
    expect(existsSync(join(cwd, 'ran'))).toBe(false);
  });

  it('exec: --export-on-exit writes the state the command left', async () => {
    const cwd = tempDir();
    const file = join(cwd, 'state.json');
    const r = await runCli(['exec', '--export-on-exit', file, '--', 'sh', '-c', `${vtr} sessions create --ip 192.0.2.10 --json`], { cwd });
    expect(r.code, r.stderr).toBe(0);
    const id = JSON.parse(r.stdout).session_id as string;
    const state = JSON.parse(readFileSync(file, 'utf8')) as { tables: { sessions: Array<{ session_id: string }> } };
    expect(JSON.stringify(state)).toContain(id);
  });

  it('exec: an --export-on-exit that cannot be written is said on stderr naming its file and why, and a command that passed exits 1', async () => {
    for (const [exit, expected] of [[0, 1], [4, 4]]) {
      const dir = join(tempDir(), 'out');
      mkdirSync(dir);
      // The directory was writable at start; the command takes it away.
      const r = await runCli(['exec', '--export-on-exit', join(dir, 'state.json'), '--', 'sh', '-c', `rm -rf "${dir}"; exit ${exit}`]);
      expect(r.code, r.stderr).toBe(expected);
      // Said of the file given, never of the temporary file it is written to first.
      expect(r.stderr).toContain(`vtr: error: --export-on-exit: could not write ${join(dir, 'state.json')}: the directory ${dir} does not exist; create it first\n`);
      expect(r.stderr).not.toContain('.tmp');
    }
  });

  it('exec: --clock frozen reaches the emulator; a session\'s times say they are emulated, in UTC', async () => {
    const frozen = await runCli(['exec', '--clock', 'frozen', '--', 'sh', '-c', `${vtr} sessions create --ip 192.0.2.11 && ${vtr} tokens list`]);
    expect(frozen.code, frozen.stderr).toBe(0);
    expect(frozen.stdout).toMatch(/created:\s+\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC \(emulated\)/);
    // Any management answer's times: the server names its clock (vtr-clock), the CLI marks them.
    expect(frozen.stdout).toMatch(/at_test_\S+\s+site_\S+\s+\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC \(emulated\)/);
    const system = await runCli(['exec', '--', 'sh', '-c', `${vtr} sessions create --ip 192.0.2.11`]);
    expect(system.stdout).toMatch(/created:\s+\S+ \S+ UTC\n/);
    expect(system.stdout).not.toContain('emulated');
  });

  it('exec: the emulator\'s own lines (a notification SMTP could not send) reach stderr only with --log', async () => {
    const closed = await busyPort();
    await closeBusyPorts(); // a port nothing listens on
    // The command (its own stderr silenced) waits until the emulator has tried to mail the failed event's notification.
    const command = `${vtr} webhooks create --url http://127.0.0.1:${closed}/hook >/dev/null 2>&1 && `
      + `${vtr} views create --name all --filter "page_views >= 1" --trigger-webhooks >/dev/null 2>&1 && `
      + `${vtr} sessions create >/dev/null 2>&1 && `
      + `for i in $(seq 100); do ${vtr} notifications list --json 2>/dev/null | grep -q send_error\\":\\" && exit 0; sleep 0.1; done; exit 9`;
    const flags = ['--smtp', `smtp://127.0.0.1:${closed}`, '--retry-schedule', '1ms,1ms,1ms,1ms,1ms'];
    const quiet = await runCli(['exec', ...flags, '--', 'sh', '-c', command]);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stderr).toBe('');
    const logged = await runCli(['exec', ...flags, '--log', 'pretty', '--', 'sh', '-c', command]);
    expect(logged.code, logged.stderr).toBe(0);
    expect(logged.stderr).toMatch(/could not send notification ntf_\w+ over SMTP/);
  });

  it('exec: an unknown command is exit 127, named', async () => {
    const r = await runCli(['exec', '--', 'vtr-no-such-command']);
    expect(r.code).toBe(127);
    expect(r.stderr).toContain('cannot run vtr-no-such-command: command not found');
  });

  it('exec: a file that is not executable is exit 126, saying so and how to run it, not a bare EACCES', async () => {
    const dir = tempDir();
    const script = join(dir, 'e2e.sh');
    writeFileSync(script, 'exit 0\n');
    const r = await runCli(['exec', '--', script]);
    expect(r.code).toBe(126);
    expect(r.stderr).toBe(`vtr: error: cannot run ${script}: it is not executable; chmod +x ${script}, or give its interpreter: vtr exec -- sh ${script}\n`);
    const folder = await runCli(['exec', '--', dir]);
    expect(folder.code).toBe(126);
    expect(folder.stderr).toBe(`vtr: error: cannot run ${dir}: it is a directory\n`);
  });

  it('exec: without a command it is a usage error saying where the command goes', async () => {
    for (const args of [['exec'], ['exec', '--']]) {
      const r = await runCli(args);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('no command to run: give it after --, e.g. `vtr exec -- npm test`');
    }
  });

  it('exec: the command\'s empty arguments are passed on as given; only an empty command name is refused', async () => {
    const r = await runCli(['exec', '--', process.execPath, '-e', 'console.log(JSON.stringify(process.argv.slice(1)))', '', 'b', ' ']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(['', 'b', ' ']);
    const empty = await runCli(['exec', '--', '', 'x']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('<command>: must not be empty');
  });

  it('exec: a command\'s own option before any -- is a usage error pointing to --, and the command does not run', async () => {
    const r = await runCli(['exec', 'node', '-e', 'console.log("ran")']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain("unknown option '-e' for vtr exec: put the command to run after --, e.g. `vtr exec -- node -e ...`");
    // A mistyped option of vtr's own still gets its suggestion.
    const typo = await runCli(['exec', '--clok', 'frozen', '--', 'node', '-e', '1']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/unknown option '--clok'[\s\S]*--clock/);
  });

  it('exec: --base-url, --secret-key or --token is a usage error naming the flag (the emulator makes its own), and the command does not run', async () => {
    const cases: Array<[string, string, string]> = [
      ['--base-url', 'http://127.0.0.1:8787/api/v1', 'VTR_BASE_URL'],
      ['--secret-key', 'sk_test_mine', 'VTR_SECRET_KEY'],
      ['--token', 'at_test_mine', 'VTR_ACCESS_TOKEN'],
    ];
    for (const [flag, value, variable] of cases) {
      const r = await runCli(['exec', flag, value, '--', 'sh', '-c', 'echo ran']);
      expect(r.code, `${flag}: ${r.stderr}`).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`vtr: usage error: ${flag}: \`vtr exec\` starts its own emulator and gives the command its ${variable}; leave ${flag} out`);
    }
  });

  it('exec: --json is a usage error saying the command owns stdout (its vtr commands take --json, the emulator\'s log --log json)', async () => {
    const r = await runCli(['exec', '--json', '--', 'sh', '-c', 'echo ran']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('vtr: usage error: --json: the command `vtr exec` runs owns stdout, so it cannot carry one JSON document; give --json to the vtr commands it runs (--log json for the emulator\'s request log, on stderr)');
  });

  it('exec: a command named without ./ that is a file in the working directory is exit 127, saying to give ./name', async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, 'e2e.sh'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    const r = await runCli(['exec', '--', 'e2e.sh'], { cwd });
    expect(r.code).toBe(127);
    expect(r.stderr).toBe('vtr: error: cannot run e2e.sh: command not found (it is not on PATH); the file in this directory runs as ./e2e.sh: vtr exec -- ./e2e.sh\n');
  });

  it('exec: --no-color reaches the command as NO_COLOR=1; without it NO_COLOR is the shell\'s', async () => {
    const show = ['sh', '-c', 'echo "[${NO_COLOR-unset}]"'];
    expect((await runCli(['exec', '--no-color', '--', ...show])).stdout).toBe('[1]\n');
    expect((await runCli(['exec', '--', ...show], { env: { NO_COLOR: undefined } })).stdout).toBe('[unset]\n');
  });
});
