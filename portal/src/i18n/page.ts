import { t } from './messages';

/** The attributes `index.html` words through the catalogue: `data-i18n-<attribute>="key"`. */
const TRANSLATED_ATTRIBUTES = ['aria-label', 'placeholder'] as const;

/**
 * The catalogue's text at a path of `index.html` (`status`, `sortOrders.-eta`). A path that is not
 * a text fails loudly: the catalogue spec checks every path of the page.
 */
export function textAt(path: string): string {
  let value: unknown = t();
  for (const part of path.split('.')) {
    value =
      typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[part] : undefined;
  }
  if (typeof value !== 'string')
    throw new Error(`index.html names "${path}", which is not a text of the catalogue`);
  return value;
}

/**
 * Words the static page in the current language: each `data-i18n` element's text (its own child
 * elements, a `<code>` or a name filled in later, kept where the text says `{0}`, `{1}`) and each
 * `data-i18n-<attribute>`.
 */
export function translatePage(root: ParentNode = document): void {
  for (const element of root.querySelectorAll<HTMLElement>('[data-i18n]')) {
    const children = [...element.children];
    const parts = textAt(element.dataset.i18n ?? '').split(/\{(\d+)\}/);
    element.replaceChildren(
      ...parts.map((part, index) => (index % 2 === 0 ? part : (children[Number(part)] ?? ''))),
    );
  }
  for (const attribute of TRANSLATED_ATTRIBUTES) {
    for (const element of root.querySelectorAll(`[data-i18n-${attribute}]`)) {
      element.setAttribute(attribute, textAt(element.getAttribute(`data-i18n-${attribute}`) ?? ''));
    }
  }
}
