#!/usr/bin/env python3
"""A stand-in for a CDash server's submit.php, for tests only: listens on 127.0.0.1, records every
request CTest sends (method, path, query, headers, body) into a folder, answers as CDash does
(<cdash><status>OK</status><md5>..</md5></cdash>) and stops by itself after --timeout seconds.

    cdash_receiver.py --record-dir DIR --port-file FILE [--timeout 120]

Each request becomes DIR/<n>.json (metadata) and DIR/<n>.body (the bytes received). The chosen port
is written to --port-file once the socket listens, so a caller never races the start-up.
"""
import argparse
import hashlib
import http.server
import json
import os
import sys
import threading
import urllib.parse


class Recorder(http.server.BaseHTTPRequestHandler):
    # HTTP/1.1 so that curl's "Expect: 100-continue" gets its interim answer at once.
    protocol_version = "HTTP/1.1"
    record_dir = "."
    counter = 0
    lock = threading.Lock()

    def _read_body(self):
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            body = b""
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    self.rfile.readline()
                    return body
                body += self.rfile.read(size)
                self.rfile.readline()
        return self.rfile.read(int(self.headers.get("Content-Length", "0") or 0))

    def _handle(self):
        body = self._read_body()
        url = urllib.parse.urlsplit(self.path)
        with Recorder.lock:
            Recorder.counter += 1
            n = Recorder.counter
        meta = {
            "method": self.command,
            "path": url.path,
            "query": urllib.parse.parse_qs(url.query),
            "headers": dict(self.headers.items()),
            "body_bytes": len(body),
        }
        base = os.path.join(Recorder.record_dir, "%03d" % n)
        with open(base + ".body", "wb") as f:
            f.write(body)
        with open(base + ".json", "w") as f:
            json.dump(meta, f, indent=1)
        answer = ('<?xml version="1.0" encoding="UTF-8"?>\n<cdash version="recorder">'
                  "<status>OK</status><message></message><md5>%s</md5></cdash>\n"
                  % hashlib.md5(body).hexdigest()).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/xml")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    do_PUT = _handle
    do_POST = _handle
    do_GET = _handle

    def log_message(self, fmt, *args):
        sys.stderr.write("cdash_receiver: " + (fmt % args) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--record-dir", required=True)
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--timeout", type=float, default=120.0, help="stop after this many seconds")
    args = ap.parse_args()
    os.makedirs(args.record_dir, exist_ok=True)
    Recorder.record_dir = args.record_dir
    # Loopback only, port chosen by the kernel: nothing outside this machine can reach it.
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
    server.daemon_threads = True
    tmp = args.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write(str(server.server_address[1]))
    os.replace(tmp, args.port_file)  # appears complete or not at all
    stopper = threading.Timer(args.timeout, server.shutdown)
    stopper.daemon = True
    stopper.start()
    try:
        server.serve_forever(poll_interval=0.2)
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
