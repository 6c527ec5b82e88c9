"""selfattn_ref: the reference implementation behind the site.

The NumPy functions live here; ``selfattn_ref.torch`` has the same names and
signatures in PyTorch. Beside the math of the first pages, attention as models run it at scale:
batched heads (``batched``), the KV cache (``kv_cache``), FlashAttention's online softmax
(``online_softmax``), grouped-query attention (``grouped_query``), rotary position embeddings
(``rotary``), cross-attention (``cross_attention``) and the sliding window (``masks``). The
worked examples are data in ``selfattn_ref/examples/``, read by ``selfattn_ref.examples``. The
computations a page quotes beyond the worked examples are in ``selfattn_ref.topics`` (one module a
page), and training runs that need PyTorch's autograd in ``selfattn_ref.training``. The package
imports nothing but NumPy (and PyTorch for ``torch`` and ``training``).
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
