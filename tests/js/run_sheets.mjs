// run({answers, exacts, choices}): how the worksheets' script reads the data and the address.
//   answers: [[question, decimals]]        -> answerText() of sheets.js: the key's answer
//   exacts:  [value]                        -> exactText() of sheets.js
//   choices: [[search, slugs, single]]      -> choiceFrom() of sheets.js: {slugs, from, to, key}
// Used by tests/test_js_sheets.py, through serve.mjs.
import { answerText, choiceFrom, exactText } from "../../docs/assets/js/sheets.js";

export function run(input) {
  return {
    answers: (input.answers ?? []).map(([question, decimals]) => answerText(question, decimals)),
    exacts: (input.exacts ?? []).map((value) => exactText(value)),
    choices: (input.choices ?? []).map(([search, slugs, single]) =>
      choiceFrom(search, slugs.map((slug) => ({ slug })), single),
    ),
  };
}
