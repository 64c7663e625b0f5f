"""The model around attention as a lesson names it: one-hot rows, and a stack with one head
taken out.

``without_head`` is how interpretability work asks what a head does: compute the model again
with that head's reading set to zero (its values zeroed, so it adds nothing to the stream)
and compare the predictions.
"""

import dataclasses

import numpy as np

from macros.engine import embedding
from macros.errors import LessonError


def without_head(fixture, layer, head):
    """The fixture's model computed again with head ``head`` of layer ``layer`` (both from 0)
    adding nothing: its W_V set to zero, so its reading, and its share of the layer's output, is 0."""
    layers = list(getattr(fixture, "layers", ()))
    if not 0 <= layer < len(layers) or not 0 <= head < len(layers[layer].heads):
        raise LessonError(
            f"without_head({layer}, {head}): expected a layer from 0 to {len(layers) - 1} and one of its heads "
            "(positions from 0): this lesson's model is a stack of that many layers"
        )
    heads = list(layers[layer].heads)
    heads[head] = dataclasses.replace(heads[head], W_V=np.zeros_like(heads[head].W_V))
    layers[layer] = dataclasses.replace(layers[layer], heads=tuple(heads))
    return dataclasses.replace(fixture, layers=tuple(layers)).run()


def names():
    return {
        "one_hot": lambda ids, n_vocab: embedding.one_hot([int(i) for i in ids], int(n_vocab)),
        "without_head": without_head,
    }
