// JSON as the source study decoded it: response.json() (reading and parsing in one step).

export function createJsonCodec() {
  return {
    name: 'json',
    /** Reads the body; for JSON this already parses it. */
    read: (response) => response.json(),
    /** Nothing left to do: response.json() gave plain objects. */
    decode: (body) => body,
  };
}
