"""selfattn_ref: the reference implementation behind the site.

The NumPy functions live here; ``selfattn_ref.torch`` has the same names and
signatures in PyTorch. The worked examples are data in ``selfattn_ref/examples/``, read by
``selfattn_ref.examples``. The computations a page quotes beyond the worked examples are in
``selfattn_ref.topics`` (one module a page), and training runs that need PyTorch's autograd in
``selfattn_ref.training``. The package imports nothing but NumPy (and PyTorch for ``torch``
and ``training``).
"""

from .attention import mix, project, scaled_dot_product_attention, scores, self_attention, softmax
from .block import feed_forward, layer_norm, transformer_block
from .masks import causal_mask, padding_mask
from .multihead import multi_head_attention
from .positional import sinusoidal_positional_encoding
from .rnn import additive_attention, dot_attention, rnn_encoder

__all__ = [
    "additive_attention",
    "causal_mask",
    "dot_attention",
    "feed_forward",
    "layer_norm",
    "mix",
    "multi_head_attention",
    "padding_mask",
    "project",
    "rnn_encoder",
    "scaled_dot_product_attention",
    "scores",
    "self_attention",
    "sinusoidal_positional_encoding",
    "softmax",
    "transformer_block",
]
