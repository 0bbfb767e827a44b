"""Execution: distinct requests in, outcomes out -- every backend in worker processes, every
request timed, no process outliving the run. One module a job:

* :mod:`~bleu_harness.execute.executor` -- the :class:`Executor`: start backends, run
  requests on them (``jobs`` workers each, a backend that keeps timing out given up on);
* :mod:`~bleu_harness.execute.startup` -- the start-up handshake: which backends are ready;
* :mod:`~bleu_harness.execute.loop` -- the event loop: writing requests, reading answers,
  deadlines, failing and ending workers;
* :mod:`~bleu_harness.execute.worker_process` -- one worker process: started in a session
  of its own, ended with its whole group.

What goes over the pipes is :mod:`bleu_harness.protocol`'s; what escapes a process group is
found by :mod:`bleu_harness.reaper`.
"""

from bleu_harness.execute.executor import PIPELINE, Executor, check_timeout
from bleu_harness.execute.loop import TIMEOUTS_IN_A_ROW
from bleu_harness.execute.startup import DEFAULT_STARTUP_TIMEOUT

__all__ = ["DEFAULT_STARTUP_TIMEOUT", "PIPELINE", "TIMEOUTS_IN_A_ROW", "Executor",
           "check_timeout"]
