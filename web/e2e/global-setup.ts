//! Starts the shop the end-to-end tests talk to: a fresh data directory, migrations, the
//! demo event, a free-download event and a second paid event made through the command
//! line, then `raceshot serve` with the SANDBOX gateway on a free local port, and LINE pointed
//! at a local stand-in (`fakeLine.ts`). Stops both after.

import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startFakeLine, LINE } from './fakeLine';
import { ADMIN, FREE_EVENT, SECOND_EVENT, eventJson } from './fixtures';

const root = resolve(import.meta.dirname, '../..');

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => (typeof address === 'object' && address ? ok(address.port) : fail(new Error('no port'))));
    });
  });
}

async function waitReady(url: string, child: ChildProcess) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`raceshot serve exited with ${child.exitCode}`);
    try {
      const r = await fetch(`${url}/readyz`);
      if (r.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('raceshot serve did not become ready');
}

export default async function setup(project: TestProject) {
  const bin = process.env.RACESHOT_BIN ?? join(root, 'target/debug/raceshot');
  const data = mkdtempSync(join(tmpdir(), 'raceshot-e2e-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  // "Send to my LINE" goes through a local stand-in for LINE.
  const line = await startFakeLine();
  // `raceshot serve` finds the built app at its default, `web/dist` under the repository,
  // as it does for `make run`.
  const env = {
    ...process.env,
    RACESHOT__DATA_DIR: data,
    RACESHOT__SERVER__ADDR: `127.0.0.1:${port}`,
    RACESHOT__PAYMENTS__ALLOW_SANDBOX: 'true',
    RACESHOT__LOG__FORMAT: 'json',
    RACESHOT__LINE__LOGIN_CHANNEL_ID: LINE.channelId,
    RACESHOT__LINE__LOGIN_CHANNEL_SECRET: LINE.channelSecret,
    RACESHOT__LINE__CHANNEL_ACCESS_TOKEN: LINE.accessToken,
    RACESHOT__LINE__ACCESS_BASE: line.url,
    RACESHOT__LINE__API_BASE: line.url,
    RUST_LOG: process.env.RUST_LOG ?? 'warn',
  };
  const run = (...args: string[]) => execFileSync(bin, args, { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
  run('migrate');
  run('seed-demo');
  const events = join(data, 'events.json');
  writeFileSync(events, JSON.stringify(eventJson(new Date())));
  run('event', 'import', events);
  const photos = join(root, 'models/photos');
  run('ingest', '--event', FREE_EVENT, '--wait', join(photos, 'players.jpg'), join(photos, 'gdp.jpg'));
  run('ingest', '--event', SECOND_EVENT, '--wait', join(photos, 'gdp.jpg'));
  execFileSync(bin, ['admin', 'create-user', '--email', ADMIN.email, '--role', 'admin'], {
    cwd: root,
    env,
    input: `${ADMIN.password}\n`,
    stdio: ['pipe', 'ignore', 'inherit'],
  });

  const server = spawn(bin, ['serve'], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
  await waitReady(baseUrl, server);
  project.provide('baseUrl', baseUrl);
  project.provide('photosDir', photos);
  project.provide('lineUrl', line.url);

  return () => {
    server.kill('SIGTERM');
    void line.stop();
    rmSync(data, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    photosDir: string;
    lineUrl: string;
  }
}
