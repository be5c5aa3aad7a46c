// The app's addresses: each view has its own, `#/<view>` or `#/<view>/<id>` (e.g.
// `#/puzzles/p0042`, `#/learn/horse`), so that a reload keeps the view, Back and Forward move
// between views, and a puzzle or a lesson can be bookmarked and shared.

/** The address of view `name`, with the id of what it shows when there is one. */
export function address(name, id = null) {
  return id === null || id === undefined || id === '' ? `#/${name}` : `#/${name}/${id.split('/').map(encodeURIComponent).join('/')}`;
}

/** The view and id an address names (`{name, id}`, `id` null when none), or null. */
export function parse(hash) {
  const match = /^#\/([a-z]+)(?:\/(.+))?$/.exec(hash ?? '');
  if (!match) return null;
  let id = null;
  try {
    id = match[2] === undefined ? null : match[2].split('/').map(decodeURIComponent).join('/');
  } catch {
    return null;
  }
  return { name: match[1], id };
}

/**
 * The views by name, each `{show(id)}`; the address bar says which is shown. An address that
 * names no view shows `fallback`; `onRoute(name)` hears each view named.
 */
export class Router {
  constructor(views, fallback, onRoute = null) {
    this.views = views;
    this.fallback = fallback;
    this.current = null;
    this.onRoute = onRoute;
  }

  /** Shows the view of the address the page was opened at, and follows every later change. */
  start() {
    window.addEventListener('hashchange', () => this.follow());
    return this.follow();
  }

  /** Shows the view the address names now. */
  follow() {
    let route = parse(location.hash);
    if (!route || !this.views[route.name]) {
      route = { name: this.fallback, id: null };
      history.replaceState(history.state, '', address(route.name));
    }
    if (this.current && this.current.name === route.name && this.current.id === route.id) return Promise.resolve();
    this.current = route;
    this.onRoute?.(route.name);
    return Promise.resolve(this.views[route.name].show(route.id));
  }

  /** Goes to view `name` (showing `id`): a new entry in the history, so that Back returns. */
  go(name, id = null) {
    const target = address(name, id);
    if (location.hash === target) {
      this.current = null;
      return this.follow();
    }
    location.hash = target;
    return Promise.resolve();
  }

  /**
   * The page now shows `id` of view `name` of its own accord (the next puzzle, a lesson opened
   * from the map, a game changed on the board): the address follows, as a new history entry
   * when `push`, else in place.
   */
  note(name, id = null, push = false) {
    const target = address(name, id);
    this.current = { name, id: id || null };
    this.onRoute?.(name);
    if (location.hash === target) return;
    if (push) history.pushState(null, '', target);
    else history.replaceState(null, '', target);
  }
}
