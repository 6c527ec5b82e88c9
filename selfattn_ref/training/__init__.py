"""Training runs that a page quotes, which need PyTorch's autograd and optimizers.

Unlike :mod:`selfattn_ref.torch`, these modules are not twins of NumPy functions: there is no
NumPy version, they import ``torch`` (install the package with ``pip install -e ".[torch]"``),
and ``import selfattn_ref`` never loads them.

- :mod:`selfattn_ref.training.word_order`: the word-order classifier of
  docs/positional-encoding.md, trained without and with positional encoding.
- :mod:`selfattn_ref.training.reversal`: the one-layer attention model of
  docs/attention-that-learns.md, trained to reverse a sequence of letters.
- :mod:`selfattn_ref.training.language_model`: the site's small language model, trained on the
  corpus of :mod:`selfattn_ref.corpus` to predict the next word; its weights are package data.
"""
