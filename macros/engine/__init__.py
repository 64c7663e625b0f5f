"""The attention engine: pure numpy, float64, no I/O and no formatting.

Every intermediate a lesson shows is computed here and kept in a named ``Trace``, so a
page can quote any step without recomputing it.
"""

from macros.engine.attention import self_attention, split_attention
from macros.engine.trace import HeadTrace, Trace

__all__ = ["HeadTrace", "Trace", "self_attention", "split_attention"]
