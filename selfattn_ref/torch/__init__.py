"""selfattn_ref.torch: the reference functions in PyTorch.

The same names and signatures as the NumPy package ``selfattn_ref``, so a test can run
both on one input. Arguments may be tensors or anything NumPy can read (lists, arrays);
float32 stays float32 and everything else becomes float64. Masks are boolean, ``True``
where a query may attend to a key. The math is written out (``@``, ``exp``) rather than
calling ``torch.nn.functional.scaled_dot_product_attention``, which the tests compare it to.
"""

from .attention import mix, project, scaled_dot_product_attention, scores, self_attention, softmax
from .batched import causal_self_attention
from .block import feed_forward, layer_norm, transformer_block
from .cross_attention import cross_attention
from .grouped_query import grouped_query_attention, repeat_kv
from .kv_cache import kv_cache_steps
from .masks import causal_mask, padding_mask, sliding_window_mask
from .multihead import join_heads, multi_head_attention, split_heads
from .online_softmax import online_softmax_attention
from .positional import sinusoidal_positional_encoding
from .rnn import additive_attention, dot_attention, rnn_encoder
from .rotary import rotary_embedding

__all__ = [
    "additive_attention",
    "causal_mask",
    "causal_self_attention",
    "cross_attention",
    "dot_attention",
    "feed_forward",
    "grouped_query_attention",
    "join_heads",
    "kv_cache_steps",
    "layer_norm",
    "mix",
    "multi_head_attention",
    "online_softmax_attention",
    "padding_mask",
    "project",
    "repeat_kv",
    "rnn_encoder",
    "rotary_embedding",
    "scaled_dot_product_attention",
    "scores",
    "self_attention",
    "sinusoidal_positional_encoding",
    "sliding_window_mask",
    "softmax",
    "split_heads",
    "transformer_block",
]
