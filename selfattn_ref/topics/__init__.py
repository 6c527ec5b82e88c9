"""The computations the pages quote beyond the worked examples, one module a page.

Each module is named after its page's generated tables (``docs/generated/<module>/``) and its
audit source in the publishing tools (``publish/generate/topics/<module>.py``, which only formats and
registers what is computed here):

- :mod:`selfattn_ref.topics.real_numbers`: "bank" in a sentence about money beside "bank of
  river" (docs/real-numbers.md);
- :mod:`selfattn_ref.topics.masking`: the causal mask as a matrix to add, zeroing weights after
  the softmax instead, and a padded batch (docs/masking.md);
- :mod:`selfattn_ref.topics.multi_head`: "The cat sat" with two heads (docs/multi-head.md);
- :mod:`selfattn_ref.topics.positional_encoding`: two sentences with their positions encoded
  (docs/positional-encoding.md; the word-order training run is :mod:`selfattn_ref.training.word_order`);
- :mod:`selfattn_ref.topics.rnn_comparison`: the worked RNN encoder-decoder step by step, and
  what a layer of each kind costs (docs/rnn-comparison.md);
- :mod:`selfattn_ref.topics.scaling`: why the scores are divided by √d, on seeded random
  vectors (docs/scaling.md), with a PyTorch twin in ``selfattn_ref.torch.topics.scaling``;
- :mod:`selfattn_ref.topics.mistakes`: classic mistakes next to the right computation
  (docs/mistakes.md), and the bugs of attention at scale (docs/mistakes-at-scale.md: a padding mask
  on the wrong axis or read with the opposite convention, a rotary position off by one in the KV
  cache, rotary pairings mixed, key heads tiled instead of repeated, the online softmax's running
  output not rescaled);
- :mod:`selfattn_ref.topics.next_word`: one sentence through the small language model, from its
  words to the next word, and the generation loop (docs/next-word.md);
- :mod:`selfattn_ref.topics.language_model`: what each head of the trained language model does,
  measured, and its weights drawn in two dimensions (docs/trained-model.md);
- attention as models run it at scale (issue 54; their pages are still to come):
  :mod:`selfattn_ref.topics.batched_heads` (a padded batch through batched heads),
  :mod:`selfattn_ref.topics.kv_cache` (the KV cache, and its size for GPT-2 small and Mistral 7B),
  :mod:`selfattn_ref.topics.flash_attention` (bank of river in tiles of keys),
  :mod:`selfattn_ref.topics.grouped_query` (query heads sharing key and value heads),
  :mod:`selfattn_ref.topics.rotary` (rotary position embeddings on dog bites man and man bites dog),
  :mod:`selfattn_ref.topics.cross_attention` (an encoder-decoder's three masks, and the RNN decoder) and
  :mod:`selfattn_ref.topics.sliding_window` (a window of keys, and what it saves).

Everything is made of the package's functions, in NumPy and float64. A computation that the page
fixes (no arguments) is computed once per process and cached: do not change the arrays it returns.
"""
