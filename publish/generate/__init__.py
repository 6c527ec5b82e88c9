"""Everything ``make update`` writes (and ``make example``, which scaffolds a spec and then writes
the same): each generated file is registered once, with the function that writes it, in
:mod:`.registry`, and names that function in its first lines (its banner); :mod:`.producers` imports
every module that registers; :mod:`.update` computes every file, then writes all or nothing.

- the worked examples' pages, scripts and notebooks (``example_pages``), their tables and worked
  lines (``tables``), figures (``figures``) and the flow's diagrams (``diagrams``);
- the pages' notebooks (``notebooks``) and their list (``notebooks_index``); the exercises' blocks
  (``exercises``); the playground's presets and bundle (``playground``, with the bundler
  ``playground_bundle``) and its limits (``playground_limits``); CONTRIBUTING's table of retired
  words (``retired_table``) and the bad-spec messages on /add-an-example/ (``spec_messages``);
- one module a topic page (``topics/``): what the page may quote (an audit source) and its tables;
- the snippets' recorded outputs (``snippets``, the runner), the training runs' records
  (``training_record``), and a new worked example's spec (``scaffold``).
"""
