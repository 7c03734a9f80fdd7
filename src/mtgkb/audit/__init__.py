"""`mtgkb audit`: the rule base checks itself, one module per job.

- `report`: the audit, assembled from the parts below; `command`: the CLI
  entry; `render`: the report as text, Markdown or JSON;
- `sources`: where the rule base is, its files scanned, the predicates of each
  statement; `coverage`: where each indexed rule is encoded and tested;
  `lint`: tags, clingo's complaints, missing messages, unused predicates;
  `kinds`: the kinds of violation the rules can derive;
- `consistency`: the corpus (`corpus`: generated tables and combats) checked
  in one or more processes; `checker`: the checks of one scenario, asked as
  `mtgkb run` asks them; `scene`: the invariants (`invariants.lp`) and the
  rules responsible, with the CR rules switched (mtgkb.engine.cores);
  `conflicts`: conflicts grouped by cause;
- `expected`: the examples' answers against their `*.expected.json`;
  `editions`: CR editions, word diffs and renumberings.
"""
