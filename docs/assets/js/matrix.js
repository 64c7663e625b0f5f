/**
 * The two matrix helpers every twin module shares: a product summed left to right (the
 * order numpy's small products are checked against) and a transpose.
 */

/** A @ B, summed left to right: (n, m) @ (m, p) -> (n, p). */
export function matmul(A, B) {
  const p = B[0].length;
  return A.map((row) => {
    const out = new Array(p).fill(0);
    row.forEach((a, k) => {
      for (let j = 0; j < p; j++) out[j] += a * B[k][j];
    });
    return out;
  });
}

/** (n, m) -> (m, n) */
export function transpose(M) {
  return M[0].map((_, j) => M.map((row) => row[j]));
}
