"""A reference library worker (harness protocol) that is NLTK, except that it misbehaves on
requests with an empty hypothesis: ``hang`` or ``crash`` (argv[1]) -- or, with ``halve``, on
every request whose options smooth (another release's arithmetic); argv[2] is the version it
reports."""

import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "bleu_harness", "adapters"))
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
        try:
            score = nltk_score(request)
        except Exception as error:
            answer.update(error=str(error), type=type(error).__name__)
        else:
            smoothed = request["options"].get("smoothing") not in (None, "method0")
            halve = mode == "halve" and smoothed and isinstance(score, (int, float))
            answer["score"] = score / 2 if halve else score
    print(json.dumps(answer), flush=True)
