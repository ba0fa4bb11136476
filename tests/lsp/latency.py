#!/usr/bin/env python3
"""Measures how soon `regel lsp` publishes diagnostics after an edit.

Not a test (no timing is asserted anywhere): a measurement for the README.
Opens the Hansa Teutonica ruleset, then N times sends a full-text change
(alternately with and without a misspelt name) and times the interval from
writing the change to reading its diagnostics, debounce included. Prints the
median and the 90th percentile, and the server's CPU time per edit (user +
system, from /proc), which depends less on what else the machine runs.

    cargo build --release && python3 tests/lsp/latency.py [target/release/regel] [N]
"""

import json
import os
import pathlib
import statistics
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
regel = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "target" / "release" / "regel")
n = int(sys.argv[2]) if len(sys.argv) > 2 else 40
path = ROOT / "rulesets" / "hansa-teutonica" / "hansa-teutonica.rules"
p = subprocess.Popen([regel, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)


def send(m):
    b = json.dumps(m).encode()
    p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(b) + b)
    p.stdin.flush()


def recv():
    header = b""
    while not header.endswith(b"\r\n\r\n"):
        header += p.stdout.read(1)
    size = int(header.split(b"Content-Length: ")[1].split(b"\r\n")[0])
    return json.loads(p.stdout.read(size))


def diagnostics():
    while True:
        m = recv()
        if m.get("method") == "textDocument/publishDiagnostics":
            return m["params"]["diagnostics"]


uri = path.as_uri()
good = path.read_text()
bad = good.replace("actions_taken < actions_allowed", "actions_takn < actions_allowed")
send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}})
recv()
send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
      "params": {"textDocument": {"uri": uri, "languageId": "regel", "version": 1, "text": good}}})
diagnostics()
def cpu_ms():
    fields = pathlib.Path(f"/proc/{p.pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


times = []
cpu_start = cpu_ms()
for v in range(2, n + 2):
    text = bad if v % 2 else good
    start = time.perf_counter()
    send({"jsonrpc": "2.0", "method": "textDocument/didChange",
          "params": {"textDocument": {"uri": uri, "version": v}, "contentChanges": [{"text": text}]}})
    ds = diagnostics()
    times.append((time.perf_counter() - start) * 1000)
    assert (len(ds) > 0) == (text is bad), (v, ds)
cpu = (cpu_ms() - cpu_start) / n
send({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
recv()
send({"jsonrpc": "2.0", "method": "exit"})
p.wait()
times.sort()
print(f"{n} edits of {path.name}: median {statistics.median(times):.1f} ms, "
      f"90th percentile {times[int(n * 0.9) - 1]:.1f} ms, max {times[-1]:.1f} ms "
      f"(edit sent → diagnostics read, 10 ms debounce included); "
      f"the server's CPU time per edit {cpu:.1f} ms")
