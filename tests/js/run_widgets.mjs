// run({grades, addresses}): how the page's script reads what a reader gives it.
//   grades:    [{typed, answer, tolerance, range}] -> grade() of typed-numbers.js: {notice} or {right}
//   addresses: [[search, count, first]]             -> variantFromAddress() of practice.js: {number, notice}
//   marks:     [text]                                -> subscriptParts() of practice.js: [[text, isSubscript]]
// and SOLUTION_AFTER, the attempts after which a worked solution opens (checks.js).
// Used by tests/test_js_widgets.py, through serve.mjs.
import { SOLUTION_AFTER } from "../../docs/assets/js/checks.js";
import { subscriptParts, variantFromAddress } from "../../docs/assets/js/practice.js";
import { grade } from "../../docs/assets/js/typed-numbers.js";

export function run(input) {
  return {
    grades: (input.grades ?? []).map(({ typed, answer, tolerance, range }) => grade(typed, answer, tolerance, range)),
    addresses: (input.addresses ?? []).map(([search, count, first]) => variantFromAddress(search, count, first ?? 0)),
    marks: (input.marks ?? []).map((text) => subscriptParts(text)),
    solutionAfter: SOLUTION_AFTER,
  };
}
