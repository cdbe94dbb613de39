import axe from 'axe-core';
import type { Page } from 'playwright-core';

/**
 * axe-core's serious and critical violations on the page as it is, as `rule: element`. Evaluated
 * through the DevTools protocol, which the page's Content-Security-Policy does not restrict.
 */
export async function seriousAccessibilityViolations(page: Page): Promise<string[]> {
  await page.evaluate(axe.source);
  return page.evaluate<string[]>(`axe.run(document, { resultTypes: ['violations'] }).then(({ violations }) =>
    violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .flatMap((violation) => violation.nodes.map((node) => violation.id + ': ' + node.target.join(' '))))`);
}
