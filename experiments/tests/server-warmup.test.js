// The server warm-up against a server that is busy for a while (503 with Retry-After, as the lab's
// server answers when another client holds every computation slot) and one that refuses.

import assert from 'node:assert/strict';
import http from 'node:http';
import { test } from 'node:test';
import { warmUpServer } from '../server-warmup.js';

/** A server on a free port answering with `answer(path, seen)`; resolves to {url, close}. */
async function serve(answer) {
  const seen = [];
  const server = http.createServer((request, response) => {
    seen.push(request.url);
    const [status, headers] = answer(request.url, seen);
    response.writeHead(status, headers).end(status === 200 ? 'x' : '{"error":"busy"}');
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    seen,
    close: () => new Promise((done) => server.close(done)),
  };
}

const PATHS = { small: ['/api/books?count=10', '/api/books?count=10&cm=2'], large: ['/api/books?count=1000'] };

test('a 503 is waited out as its Retry-After asks, counted, and every request is still made', async () => {
  let refused = 0;
  const server = await serve((path) =>
    path.includes('cm=2') && refused++ < 3 ? [503, { 'Retry-After': '0' }] : [200],
  );
  try {
    const result = await warmUpServer(server.url, PATHS, 40);
    assert.equal(result.requests, 40);
    assert.equal(result.busy_answers, 3);
    // Every odd request of 40 is the CM path (none is a 20th, the large path's): 20, and the 3 refused.
    assert.equal(server.seen.filter((p) => p.includes('cm=2')).length, 20 + 3);
  } finally {
    await server.close();
  }
});

test('any other refusal ends the warm-up, naming the status and the path', async () => {
  const server = await serve((path) => (path.includes('cm=2') ? [500] : [200]));
  try {
    await assert.rejects(
      warmUpServer(server.url, PATHS, 10),
      /the server warm-up got 500 for \/api\/books\?count=10&cm=2/,
    );
  } finally {
    await server.close();
  }
});
