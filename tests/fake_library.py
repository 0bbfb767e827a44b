"""A reference library worker (harness protocol) that is NLTK, except that it misbehaves on
requests with an empty hypothesis: ``hang`` or ``crash`` (argv[1]); argv[2] is the version it
reports."""

import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "harness", "adapters"))
from library_worker import nltk_score  # noqa: E402

mode, version = sys.argv[1], sys.argv[2]
for line in sys.stdin:
    request = json.loads(line)
    answer = {"id": request["id"]}
    if request.get("info"):
        answer["info"] = {"library": "nltk", "version": version, "python": "3"}
    elif "" in request["hypotheses"] and mode == "hang":
        time.sleep(60)
    elif "" in request["hypotheses"] and mode == "crash":
        os._exit(9)
    else:
        answer["score"] = nltk_score(request)
    print(json.dumps(answer), flush=True)
