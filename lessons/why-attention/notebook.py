# %% [markdown]
# ## One summary, and dot products, on the same numbers
#
# The cells above score the keys additively, as the lesson's second half does. Its first half
# compares two other things on the same queries, keys and values: one summary vector for
# every query (the average of the value rows), and attention pooling with dot-product scores,
# q·k divided by √d_k. Here they are in numpy.

# %%
summary = V.mean(axis=0)  # (d_v,): the same vector, whatever the query
d_k = K.shape[1]
dot_scaled = Q @ K.T / np.sqrt(d_k)  # (n_q, d_k) @ (d_k, n_k) -> (n_q, n_k)
dot_exps = np.exp(dot_scaled)  # (n_q, n_k)
dot_weights = dot_exps / dot_exps.sum(axis=1, keepdims=True)  # (n_q, n_k): each row adds up to 1
dot_reading = dot_weights @ V  # (n_q, n_k) @ (n_k, d_v) -> (n_q, d_v): one reading per query
show(summary=summary, dot_scaled=dot_scaled, dot_weights=dot_weights, dot_reading=dot_reading)

# %%
# Each query's favourite key (counted from 1) under each scoring.
print("dot products:", dot_scaled.argmax(axis=1) + 1)
print("additive:    ", scores.argmax(axis=1) + 1)
