# %% [markdown]
# ## Counting
#
# This notebook computes the small layer of the lesson. The counts of the lesson's
# tables are not computed above; the code below, pasted into a new code cell, prints
# them.
#
# ```python
# d_model, h, d_k, w = 4096, 32, 128, 4096
# for n in [1024, 2048, 4096, 8192, 16384, 32768]:
#     linear = 3 * n * d_model * h * d_k + n * h * d_k * d_model  # projections and W_O
#     quadratic = 2 * h * n * n * d_k  # scores and weighting
#     window = h * d_k * sum(min(p + 1, w) for p in range(n))  # scores under the window
#     billions = [f"{count / 1e9:10.3f}" for count in (linear, quadratic, window)]
#     print(f"n = {n:6d}: n part, n² part, window (billions):", *billions)
# ```
