"""selfattn_ref.torch: the reference functions in PyTorch.

The same names and signatures as the NumPy package ``selfattn_ref``, so a test can run
both on one input. Arguments may be tensors or anything NumPy can read (lists, arrays);
float32 stays float32 and everything else becomes float64. Masks are boolean, ``True``
where a query may attend to a key. The math is written out (``@``, ``exp``) rather than
calling ``torch.nn.functional.scaled_dot_product_attention``, which the tests compare it to.
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
