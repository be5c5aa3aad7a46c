// A server of the tests' own: the release build that ./run makes, started on a free loopback
// port, for tests that stop and restart it.

import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const BINARY = fileURLToPath(new URL('../target/release/xiangqi', import.meta.url));
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
