// run(cases): cases is an array of {fixture, places, elements}, each element a lab's bound
// text as the build wrote it ({bind, group, figure}: its data-bind, its data-group or null,
// and the index of the svg figure holding it or null). For each, the twin recomputes the
// fixture (trace() plus headAverage(), as a lab does) and labs.js's bindTexts groups and
// formats the bound values. For each case comes back {trace, texts}: the twin's trace and
// the lab's texts in element order. Used by tests/test_twin_text.py, through serve.mjs.
import { headAverage, trace } from "../../docs/assets/js/engine.js";
import { bindTexts } from "../../docs/assets/js/labs.js";

export function run(cases) {
  return cases.map(({ fixture, places, elements }) => {
    const figures = new Map();
    const figureOf = (index) => {
      if (!figures.has(index)) figures.set(index, { figure: index });
      return figures.get(index);
    };
    // Just what bindTexts reads of an element: its dataset and the svg figure around it.
    const fakes = elements.map(({ bind, group, figure }) => ({
      dataset: group === null ? { bind } : { bind, group },
      closest: (selector) => (selector === "svg.abh-figure" && figure !== null ? figureOf(figure) : null),
    }));
    const data = trace(fixture);
    data.average = headAverage(data);
    const texts = bindTexts(fakes, data, places);
    return { trace: data, texts: fakes.map((fake) => texts.get(fake) ?? null) };
  });
}
