"""A BLEU program behind the JSON-lines protocol that misbehaves as asked (argv[1]).

It answers the harness's startup request (hypothesis "a b c d" against itself) properly, so
that the run starts, and misbehaves on every other request -- unless the mode ends in
``-always``, which misbehaves from the start. Modes: ok, garbage, crash, hang, error,
wrong-key, stray-line, wrong-id, float-id, no-id, not-utf8, close-stdout, never-read, child, big-int,
log (``ok``, and appends every request to the file argv[2]), exit-after-answer (exits after
each answer it gives, the startup answer included), print-after-startup (a line nobody asked
for right after the startup answer), deep (100,000 nested ``[``), huge (an answer of
17 MiB), nan, error-type-list (``"type": ["KeyError"]``), scalar-as-list (``[1.0]``).

With ``FAKE_SPAWN=child:MARKER`` (or ``orphan:MARKER``) in its environment it first starts a
process in a session of its own, marked with MARKER on its command line: its child, or an
orphan (its parent exits at once) -- whatever the mode.
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
spawn, _, marker = os.environ.get("FAKE_SPAWN", "").partition(":")
sleeper = [sys.executable, "-c", "import time; time.sleep(300)", marker]
if spawn == "child":
    subprocess.Popen(sleeper, start_new_session=True, stdout=subprocess.DEVNULL,
                     stderr=subprocess.DEVNULL)
elif spawn == "orphan":  # sh starts it in the background and exits
    subprocess.run(["sh", "-c", 'setsid "$@" >/dev/null 2>&1 &', "sh", *sleeper])
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
        elif mode == "exit-after-answer":
            sys.exit(0)
        elif mode == "print-after-startup":
            print("ready for more", flush=True)
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
    elif mode == "float-id":  # 7.0 is not the id 7
        print(json.dumps({"id": float(ident), "score": 1.0}), flush=True)
    elif mode == "no-id":
        print(json.dumps({"score": 1.0}), flush=True)
    elif mode == "not-utf8":
        sys.stdout.buffer.write(b'{"id": %d, "score": "\xff"}\n' % ident)
        sys.stdout.flush()
    elif mode == "close-stdout":
        os.close(1)
        time.sleep(60)
    elif mode == "deep":
        print('{"id": %d, "score": %s}' % (ident, "[" * 100000), flush=True)
    elif mode == "huge":
        print('{"id": %d, "score": [%s1]}' % (ident, "1, " * (6 * 2**20)), flush=True)
    elif mode == "nan":
        print('{"id": %d, "score": NaN}' % ident, flush=True)
    elif mode == "error-type-list":
        answer(ident, error="x", type=["KeyError"])
    elif mode == "scalar-as-list":
        answer(ident, score=[1.0])
    elif mode == "big-int":
        sys.set_int_max_str_digits(0)
        print('{"id": %d, "score": %s}' % (ident, "9" * 5000), flush=True)
    else:
        answer(ident, score=1.0)
        if mode == "exit-after-answer":
            sys.exit(0)
