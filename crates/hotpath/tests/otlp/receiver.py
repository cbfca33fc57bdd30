"""A loopback OTLP/HTTP receiver for tests/otlp_export.rs: decodes each POST with the
official schema (PyPI `opentelemetry-proto`), answers an empty
ExportMetricsServiceResponse, and when its standard input closes (or after
--seconds) prints one JSON line: every request as a dict, with its path and
content type. Prints `port N` first."""

import argparse
import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from google.protobuf.json_format import MessageToDict
from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import (
    ExportMetricsServiceRequest,
    ExportMetricsServiceResponse,
)

requests = []
lock = threading.Lock()


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        request = ExportMetricsServiceRequest()
        request.ParseFromString(body)
        # Every field hotpath sends must be known to the schema: bytes of unknown
        # fields (at any depth) go when they are discarded.
        full = len(request.SerializeToString())
        request.DiscardUnknownFields()
        unknown = full - len(request.SerializeToString())
        with lock:
            requests.append({
                "path": self.path,
                "content_type": self.headers.get("Content-Type"),
                "unknown_bytes": unknown,
                "request": MessageToDict(request, preserving_proto_field_name=True),
            })
        reply = ExportMetricsServiceResponse().SerializeToString()
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)

    def log_message(self, *args):
        pass


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=120)
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(f"port {server.server_address[1]}", flush=True)
    stdin_closed = threading.Event()
    threading.Thread(target=lambda: (sys.stdin.read(), stdin_closed.set()), daemon=True).start()
    stdin_closed.wait(args.seconds)
    server.shutdown()
    with lock:
        print(json.dumps(requests), flush=True)


main()
