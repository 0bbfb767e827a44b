"""The divergence side, below the judge: why two BLEU numbers for one input differ.

* ``detectors`` -- the divergence tags (one detector per tag of ``schema/tags.yaml``), read
  off the input's statistics and the options of the two sides;
* ``scorer`` -- the input's statistics, counted once per preprocessing, and what knob
  settings answer on them (the pass the detectors, attribution and diagnosis share);
* ``agreement`` -- which pairs of conventions disagree on an input, and why (attribution);
* ``attribution`` -- the smallest set of knobs whose switch makes two conventions agree;
* ``diagnose`` -- the smallest knob change that turns a claimed convention into an
  implementation's answer.

The judge, the reports and ``explain`` import from here; nothing here imports them.
"""
