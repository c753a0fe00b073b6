#!/usr/bin/env node
// Firefox inside the study's browser namespace (SHAPING=netns), as Playwright's executable.
// Playwright drives Firefox over WebDriver BiDi, a WebSocket that Firefox opens on its own
// loopback; inside the namespace that loopback is not this machine's. So this wrapper listens on
// a port of this machine's loopback, starts Firefox in the namespace with its BiDi server on the
// same port number, and carries each connection across (one `ip netns exec` bridge each). Only
// the driver's messages take that way; the page's requests go over the shaped link.

import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { FIREFOX_LAUNCHER } from '#common/browsers/firefox.js';

const NAMESPACE = `${process.env.RTL_NETNS ?? 'rtl-lab'}-browser`;
/** The bridge inside the namespace: stdin/stdout ⇄ Firefox's BiDi port. */
const BRIDGE =
  'const s = require("node:net").connect(Number(process.argv[1]), "127.0.0.1");' +
  'process.stdin.pipe(s); s.pipe(process.stdout);' +
  's.on("close", () => process.exit(0)); s.on("error", () => process.exit(1));';

const forwarder = createServer((socket) => {
  const bridge = spawn('ip', ['netns', 'exec', NAMESPACE, process.execPath, '-e', BRIDGE, String(port)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  socket.pipe(bridge.stdin);
  bridge.stdout.pipe(socket);
  socket.on('error', () => bridge.kill());
  socket.on('close', () => bridge.kill());
  bridge.on('exit', () => socket.destroy());
});

let port;
forwarder.listen(0, '127.0.0.1', () => {
  port = forwarder.address().port;
  const args = process.argv
    .slice(2)
    .map((arg) => (arg.startsWith('--remote-debugging-port') ? `--remote-debugging-port=${port}` : arg));
  const firefox = spawn('ip', ['netns', 'exec', NAMESPACE, FIREFOX_LAUNCHER, ...args], { stdio: 'inherit' });
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => firefox.kill(signal));
  firefox.on('exit', (code, signal) => {
    forwarder.close();
    process.exit(code ?? (signal ? 1 : 0));
  });
});
