# %% [markdown]
# ## Counting
#
# This notebook computes the small layer of the lesson. The counts of the lesson's
# tables are not computed above; the code below, pasted into a new code cell, prints
# them. Every count is multiply-adds of one layer, no biases, the softmax's own work
# left out; one multiply-add is two FLOPs.
#
# ```python
# d_model, h, d_k, w = 4096, 32, 128, 4096
# for n in [1024, 2048, 4096, 8192, 16384, 32768]:
#     linear = 3 * n * d_model * h * d_k + n * h * d_k * d_model  # projections and W_O
#     quadratic = 2 * h * n * n * d_k  # scores and weighting, all n x n pairs
#     causal = 2 * h * d_k * n * (n + 1) // 2  # the same, hidden pairs skipped
#     window = 2 * h * d_k * sum(min(p + 1, w) for p in range(n))  # the same, under the window
#     billions = [f"{count / 1e9:10.3f}" for count in (linear, quadratic, causal, window)]
#     print(f"n = {n:6d}: n part, n² part, causal, window (billions):", *billions)
#     qkv = 3 * n * h * d_k  # Q, K and V; the KV cache is the K and V among them
#     print(f"           numbers held: scores and weights {2 * h * n * n}, Q, K and V {qkv}")
# ```
