import katex from 'katex';

/**
 * Math rendered on the server as MathML (KaTeX), which browsers lay out natively: no
 * script, no font files and no inline styles (the CSP forbids them). The source stays
 * in the MathML annotation for copy and for assistive technology.
 */
export function texToMathml(tex: string, display: boolean): string {
  return katex.renderToString(tex, {
    output: 'mathml',
    displayMode: display,
    throwOnError: false,
    trust: false,
    strict: 'ignore',
    maxExpand: 1000,
  });
}
