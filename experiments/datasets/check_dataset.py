"""Checks a brought dataset over HTTP with decoders that share nothing with the lab's code.

Brings a JSON (array or JSON Lines) file to a running server (PUT /api/datasets/<name>), fetches
it in every format and compression, decodes each with an independent library (json, cbor2,
msgpack, protobuf with the published .proto compiled by protoc, ElementTree for both XML styles)
and compares the objects with the file's, by the rules of docs/datasets.md#what-arrives: null and
absent are the same; a field's integers and floats compare as numbers; Protobuf gives an absent
array as empty.

    python3 experiments/datasets/check_dataset.py http://localhost:8080 name file.json

Exits 0 when every format matches; else prints the first mismatch per format and exits 1.
"""

import gzip
import importlib
import json
import os
import subprocess
import sys
import tempfile
import urllib.request
import xml.etree.ElementTree as ElementTree

import cbor2
import msgpack
from google.protobuf import message_factory


def request(method, url, data=None):
    req = urllib.request.Request(url, data=data, method=method)
    with urllib.request.urlopen(req) as answer:
        return answer.status, dict(answer.headers), answer.read()


def read_objects(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if text.lstrip().startswith("["):
        return json.loads(text)
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def normalize(value, field=None):
    """The value as the comparison sees it: nulls dropped, numbers as floats."""
    if isinstance(value, dict):
        return {k: normalize(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [normalize(v) for v in value]
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    return float(value) if isinstance(value, float) else value


def same(expected, actual):
    if isinstance(expected, dict):
        return (
            isinstance(actual, dict)
            and expected.keys() == actual.keys()
            and all(same(expected[k], actual[k]) for k in expected)
        )
    if isinstance(expected, list):
        return (
            isinstance(actual, list)
            and len(expected) == len(actual)
            and all(same(e, a) for e, a in zip(expected, actual))
        )
    if isinstance(expected, bool) or isinstance(actual, bool):
        return expected is actual
    if isinstance(expected, (int, float)) and isinstance(actual, (int, float)):
        return expected == actual
    return expected == actual


def typed(schema_fields, element):
    """An ElementTree element of one object as a dict, typed by the schema."""
    result = {}
    for field in schema_fields:
        name, kind = field["name"], field["type"]
        repeated = kind.endswith("[]")
        base = kind[:-2] if repeated else kind
        if name in element.attrib:
            result[name] = scalar(base, element.attrib[name])
            continue
        child = element.find(name)
        if child is None:
            continue
        if repeated:
            result[name] = [value(field, base, item) for item in child.findall("item")]
        else:
            result[name] = value(field, base, child)
    return result


def value(field, base, element):
    if base == "object":
        return typed(field["fields"], element)
    return scalar(base, element.text or "")


def scalar(base, text):
    if base in ("int32", "int64"):
        return int(text)
    if base == "double":
        return float(text)
    if base == "bool":
        return {"true": True, "false": False}[text]
    return text


def protobuf_module(proto_text, name):
    directory = tempfile.mkdtemp()
    with open(os.path.join(directory, name + ".proto"), "w", encoding="utf-8") as f:
        f.write(proto_text)
    subprocess.run(
        [
            sys.executable,
            "-m",
            "grpc_tools.protoc",
            "-I" + directory,
            "--python_out=" + directory,
            name + ".proto",
        ],
        check=True,
    )
    sys.path.insert(0, directory)
    return importlib.import_module(name.replace("-", "_") + "_pb2")


def from_protobuf(message, schema_fields):
    result = {}
    for field in schema_fields:
        name, kind = field["name"], field["type"]
        repeated = kind.endswith("[]")
        base = kind[:-2] if repeated else kind
        if repeated:
            values = getattr(message, name)
            result[name] = [
                from_protobuf(v, field["fields"]) if base == "object" else v for v in values
            ]
        elif base == "object" or field["optional"]:
            if message.HasField(name):
                v = getattr(message, name)
                result[name] = from_protobuf(v, field["fields"]) if base == "object" else v
        else:
            result[name] = getattr(message, name)
    return result


def main(base, name, path):
    original = [normalize(o) for o in read_objects(path)]
    with open(path, "rb") as f:
        status, _, body = request("PUT", f"{base}/api/datasets/{name}", f.read())
    described = json.loads(body)
    schema = described["fields"]
    count = described["objects"]
    if described["objects"] != len(original):
        print(f"count {count} != {len(original)}")
        return 1
    # The Protobuf module's file name: protoc makes <file>_pb2 from <file>.proto.
    module = protobuf_module(described["protobuf"]["text"], name)
    item_list = getattr(module, "ItemList")
    failures = 0
    for fmt in ["json", "xml", "xml-attributes", "cbor", "msgpack", "protobuf"]:
        for compression in ["none", "gzip"]:
            _, headers, raw = request(
                "GET", f"{base}/api/{name}?count={count}&format={fmt}&compression={compression}"
            )
            if compression == "gzip":
                raw = gzip.decompress(raw)
            if fmt == "json":
                decoded = json.loads(raw)
            elif fmt == "cbor":
                decoded = cbor2.loads(raw)
            elif fmt == "msgpack":
                decoded = msgpack.unpackb(raw, raw=False)
            elif fmt == "protobuf":
                message = item_list()
                message.ParseFromString(raw)
                decoded = [from_protobuf(item, schema) for item in message.items]
            else:
                root = ElementTree.fromstring(raw)
                decoded = [typed(schema, item) for item in root.findall("item")]
            expected = original
            if fmt == "protobuf":
                # Protobuf cannot tell an absent array from an empty one.
                expected = [
                    {
                        **{f["name"]: [] for f in schema if f["type"].endswith("[]")},
                        **o,
                    }
                    for o in original
                ]
            decoded = [normalize(o) for o in decoded]
            bad = next(
                (i for i, (e, a) in enumerate(zip(expected, decoded)) if not same(e, a)),
                None,
            )
            if len(decoded) != len(expected) or bad is not None:
                failures += 1
                print(f"{fmt}/{compression}: mismatch at object {bad}")
                if bad is not None:
                    print("  expected", expected[bad])
                    print("  got     ", decoded[bad])
            else:
                print(f"{fmt}/{compression}: {len(decoded)} objects match")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
