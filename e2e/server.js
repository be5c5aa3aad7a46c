// A server of the tests' own: the build that ./run makes (XIANGQI_BINARY; the release build
// by default), started on a free loopback port, for tests that stop and restart it.

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createConnection, createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const BINARY = process.env.XIANGQI_BINARY ?? fileURLToPath(new URL('../target/release/xiangqi', import.meta.url));
const ADDRESS = /http:\/\/127\.0\.0\.1:(\d+)\//;

/** A loopback port that was free a moment ago. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port: p } = probe.address();
      probe.close(() => resolve(p));
    });
  });
}

/**
 * Starts `xiangqi play` on `port` with the further `args`; resolves with the process once it
 * serves on that port and its output matches `ready` (the address line when not given). The
 * process's `output` holds what it has printed.
 */
export function startServer(port, args = [], ready = ADDRESS) {
  return new Promise((resolve, reject) => {
    const child = spawn(BINARY, ['play', '--port', String(port), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.output = '';
    const timer = setTimeout(() => reject(new Error(`the server did not start: ${child.output}`)), 10000);
    child.stdout.on('data', (chunk) => {
      child.output += chunk;
      const address = ADDRESS.exec(child.output);
      if (!address || !ready.test(child.output)) return;
      clearTimeout(timer);
      if (Number(address[1]) !== port) reject(new Error(`the server took port ${address[1]}, not ${port}`));
      else resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`the server stopped (${code}): ${child.output}`)));
  });
}

/**
 * Starts `xiangqi serve` on `port` for the public address `publicUrl` with the further
 * `args`; resolves with the process once it says it is hosted.
 */
export function startHosted(port, publicUrl, args = []) {
  return new Promise((resolve, reject) => {
    const child = spawn(BINARY, ['serve', '--listen', `127.0.0.1:${port}`, '--public-url', publicUrl, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.output = '';
    const timer = setTimeout(() => reject(new Error(`the server did not start: ${child.output}`)), 10000);
    const heard = (chunk) => {
      child.output += chunk;
      if (!/is hosted at/.test(child.output) || !/Games are|Your games/.test(child.output)) return;
      clearTimeout(timer);
      resolve(child);
    };
    child.stdout.on('data', heard);
    child.stderr.on('data', (chunk) => { child.output += chunk; });
    child.once('exit', (code) => reject(new Error(`the server stopped (${code}): ${child.output}`)));
  });
}

/** Stops `server` with `signal` (SIGKILL: no chance to tidy up); resolves once it has gone. */
export function stopServer(server, signal = 'SIGTERM') {
  if (!server || server.exitCode !== null || server.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    server.once('exit', resolve);
    server.kill(signal);
  });
}

/** Debian's nginx. */
const NGINX = ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p));
/** The deploy folder's proxy settings, as a club copies them. */
const PROXY = fileURLToPath(new URL('../deploy/xiangqi-proxy.conf', import.meta.url));

/**
 * Starts nginx on `port` in front of the server on `serverPort`, for the name `name`, with
 * the deploy folder's proxy settings and its files under `prefix`; resolves once it listens.
 */
export async function startNginx(prefix, port, serverPort, name) {
  if (!NGINX) throw new Error('nginx is needed for this test (Debian\'s package nginx; scripts/test installs it)');
  for (const dir of ['', 'body', 'proxy']) mkdirSync(join(prefix, dir), { recursive: true });
  const config = `daemon off;
master_process off;
worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${prefix}/body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  map $http_upgrade $connection_upgrade { default upgrade; '' close; }
  upstream xiangqi_server { server 127.0.0.1:${serverPort}; }
  server {
    listen 127.0.0.1:${port};
    server_name ${name};
    include ${PROXY};
  }
}
`;
  writeFileSync(join(prefix, 'nginx.conf'), config);
  const child = spawn(NGINX, ['-p', prefix, '-c', join(prefix, 'nginx.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
  child.output = '';
  child.stderr.on('data', (chunk) => { child.output += chunk; });
  for (let i = 0; i < 100; i++) {
    const up = await new Promise((resolve) => {
      const probe = createConnection({ port, host: '127.0.0.1' }, () => { probe.end(); resolve(true); });
      probe.on('error', () => resolve(false));
    });
    if (up) return child;
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nginx did not start: ${child.output}`);
}
