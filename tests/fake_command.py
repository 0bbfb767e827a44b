"""A BLEU program behind the JSON-lines protocol that misbehaves as asked (argv[1]).

It answers the harness's startup request (hypothesis "a b c d" against itself) properly, so
that the run starts, and misbehaves on every other request -- unless the mode ends in
``-always``, which misbehaves from the start. Modes: ok, garbage, crash, hang, error,
wrong-key, stray-line, wrong-id, no-id, not-utf8, close-stdout, never-read, child, big-int,
log (``ok``, and appends every request to the file argv[2]).
"""

import json
import os
import subprocess
import sys
import time

mode = sys.argv[1]
always = mode.endswith("-always")
mode = mode[: -len("-always")] if always else mode


def answer(ident, **fields):
    print(json.dumps({"id": ident, **fields}), flush=True)


if mode == "child":
    subprocess.Popen(["sleep", "1000"])  # inherits stdout, outlives nothing
for line in sys.stdin:
    request = json.loads(line)
    ident = request["id"]
    if mode == "log":
        with open(sys.argv[2], "a", encoding="utf-8") as log:
            log.write(json.dumps({k: v for k, v in request.items() if k != "id"},
                                 sort_keys=True) + "\n")
    if request["hypotheses"] == ["a b c d"] and not always:
        answer(ident, score=1.0)
        if mode == "never-read":  # reads nothing more: a big request fills the pipe
            time.sleep(60)
        continue
    if mode == "garbage":
        print("this is not json", flush=True)
    elif mode == "crash":
        sys.exit(7)
    elif mode == "hang":
        time.sleep(60)
    elif mode == "error":
        answer(ident, error="cannot score", type="ValueError")
    elif mode == "wrong-key":
        answer(ident, bleu=0.5)
    elif mode == "stray-line":
        print(json.dumps({"score": 0.123}), flush=True)
        answer(ident, score=1.0)
    elif mode == "wrong-id":
        answer(ident + 1000, score=1.0)
    elif mode == "no-id":
        print(json.dumps({"score": 1.0}), flush=True)
    elif mode == "not-utf8":
        sys.stdout.buffer.write(b'{"id": %d, "score": "\xff"}\n' % ident)
        sys.stdout.flush()
    elif mode == "close-stdout":
        os.close(1)
        time.sleep(60)
    elif mode == "big-int":
        sys.set_int_max_str_digits(0)
        print('{"id": %d, "score": %s}' % (ident, "9" * 5000), flush=True)
    else:
        answer(ident, score=1.0)
