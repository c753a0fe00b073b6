// JSON: as the source study decoded it, response.json() (reading and parsing in one step), and
// response.text() followed by JSON.parse.

export function createDecoders() {
  return {
    /** Reads and parses in one step; decode has nothing left to do. */
    json: { read: (response) => response.json(), decode: (objects) => objects },
    parse: { read: (response) => response.text(), decode: (text) => JSON.parse(text) },
  };
}
