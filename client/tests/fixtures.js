// The shared vectors the Java tests write (server/target/client-fixtures), and the client's
// codecs set up for Node: protobuf.js from npm (the version the page gets from the WebJar) and
// @xmldom/xmldom standing in for the browser's DOMParser.

import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCodecs } from '../codecs/index.js';

const require = createRequire(import.meta.url);
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const FIXTURES = join(ROOT, 'server', 'target', 'client-fixtures');

export function fixture(name) {
  const path = join(FIXTURES, name);
  if (!existsSync(path)) {
    throw new Error(`${path} is missing: the Java tests write it (npm test runs them first; or mvn test)`);
  }
  return readFileSync(path);
}

export const protobuf = require('protobufjs');
export const protoText = readFileSync(join(ROOT, 'proto', 'lab.proto'), 'utf8');
export const codecs = await createCodecs({ protobuf, protoText, DOMParser: require('@xmldom/xmldom').DOMParser });
