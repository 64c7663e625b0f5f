# %% [markdown]
# ## The variance of q · k, measured
#
# The lesson's table, drawn again with the same generator and seed: for each width, pairs
# of standard-normal q and k, and the variance of their dot products before and after
# dividing by √d_k. Change the seed or the sample size and see how close to d_k it stays.

# %%
import numpy as np

rng = np.random.default_rng(7)  # the lesson's seed
samples = 20000
for d_k in [1, 4, 16, 64]:
    q = rng.standard_normal((samples, d_k))  # (samples, d_k)
    k = rng.standard_normal((samples, d_k))  # (samples, d_k)
    dots = np.einsum("sd,sd->s", q, k)  # (samples,)
    print(f"d_k = {d_k:2d}: variance {dots.var():.3f}, after dividing by √d_k {(dots / np.sqrt(d_k)).var():.3f}")
