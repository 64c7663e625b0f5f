"""Reading what authors write: the YAML files, a fixture in either form, a lesson's front
matter and the book's track. Every mistake is a ``macros.errors.SourceError`` naming its
file, the field and what was expected.

- ``yamlfile.py``: YAML read with each value's line, for located errors; ``found.py``: how
  a found value is worded in a message;
- ``fixture.py``: a fixture read and validated (``extends:`` merged first); ``forms.py``:
  its two forms, self-attention and given Q, K, V; ``sequences.py``: the self-attention
  form with a source, padding and positions;
- the optional keys, a module each: ``sequence_keys.py`` (source, key_length, positions),
  ``scoring_keys.py`` (additive, alibi, softcap, qk_norm), ``softmax_keys.py`` (sink,
  linear), ``latent_keys.py`` (latent), ``generation_keys.py`` (kv_heads, window, block
  sizes, paged), ``training_keys.py`` (transformer, upstream), ``model_keys.py`` (vocabulary,
  embedding, unembedding, sampling, layers, train), ``params.py`` (params),
  ``practice_key.py`` (practice);
- ``front_matter.py``: a lesson's front matter; ``track.py``: lessons/track.yaml;
  ``folders.py``: where the lessons are; ``prose.py``: numbers typed in prose refused;
  ``pins.py``: the versions the requirements files pin;
- ``reads.py``: the record of every file a computation read, by digest, which the page
  cache keys on.

May import: macros.errors to macros.engine.
"""
