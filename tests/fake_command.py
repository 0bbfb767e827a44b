"""A BLEU program behind the JSON-lines protocol, misbehaving as asked: ``ok``, ``garbage``,
``crash``, ``hang``, ``error``."""

import json
import sys
import time

mode = sys.argv[1]
for line in sys.stdin:
    request = json.loads(line)
    if mode == "garbage":
        print("this is not json", flush=True)
    elif mode == "crash":
        sys.exit(7)
    elif mode == "hang":
        time.sleep(60)
    elif mode == "error":
        print(json.dumps({"error": "cannot score", "type": "ValueError"}), flush=True)
    elif mode == "wrong-key":
        print(json.dumps({"bleu": 0.5}), flush=True)
    else:
        print(json.dumps({"score": 1.0}), flush=True)
