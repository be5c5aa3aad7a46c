// Page elements built in one call: a tag with its attributes and text, an SVG element with
// its attributes, a button that names the action it stands for, and a labelled choice list.
// The board, the legend and every view draw themselves with these.

const SVG = 'http://www.w3.org/2000/svg';

/** A `tag` element with `attrs` (`class` sets the class name) and, when given, `text`. */
export function element(tag, attrs = {}, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') node.className = v;
    else node.setAttribute(k, v);
  }
  if (text !== undefined) node.textContent = text;
  return node;
}

/** An SVG `name` element with `attrs`, appended to `parent` when one is given. */
export function svgElement(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  parent?.append(node);
  return node;
}

/**
 * A button for `action`, carried in the attribute `data-<view>` so that the view's one click
 * listener finds it; `extra` adds attributes.
 */
export function actionButton(view, action, text, extra = {}) {
  return element('button', { type: 'button', [`data-${view}`]: action, ...extra }, text);
}

/**
 * A choice list under `label`: a `select` with `attrs` and one option per `[value, text]` of
 * `options`, `chosen` selected.
 */
export function labelledSelect(label, attrs, options, chosen) {
  const wrap = element('label');
  const input = element('select', attrs);
  for (const [value, text] of options) {
    const option = element('option', { value }, text);
    if (value === chosen) option.selected = true;
    input.append(option);
  }
  wrap.append(element('span', {}, label), input);
  return wrap;
}
