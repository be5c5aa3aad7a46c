// The app's addresses: each view has its own, `#/<view>` or `#/<view>/<id>` (e.g.
// `#/puzzles/p0042`, `#/learn/horse`), so that a reload keeps the view, Back and Forward move
// between views, and a puzzle or a lesson can be bookmarked and shared.

/** The address of view `name`, with the id of what it shows when there is one. */
export function address(name, id = null) {
  return id === null || id === undefined || id === '' ? `#/${name}` : `#/${name}/${id.split('/').map(encodeURIComponent).join('/')}`;
}

/** The view and id an address names (`{name, id}`, `id` null when none), or null. */
export function parse(hash) {
  // A profile's address is `#/@/<name>`.
  const match = /^#\/([a-z]+|@)(?:\/(.+))?$/.exec(hash ?? '');
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
 * The place a view draws in: the page's element `id` (made, hidden, before the game's panel
 * when the page has none yet), with `className`. Every panel carries `data-panel`, so that
 * the router shows one at a time.
 */
export function panel(id, className = id) {
  let element = document.getElementById(id);
  if (!element) {
    element = document.createElement('section');
    element.id = id;
    element.className = className;
    element.hidden = true;
    const game = document.querySelector('main[data-panel]');
    game.before(element);
  }
  element.dataset.panel = '';
  return element;
}

/**
 * The app's views, in one table: each address name maps to `{panel, nav, label, show(id)}` —
 * the id of the panel it shows (or a function of the id that gives it), the link of the
 * navigation it belongs to, the key of that link's words when the view has a link of its own,
 * and what opening `id` does. An address that names no view shows `fallback`; `moved` maps
 * a view's former name to its name now, so that an old link still opens it;
 * `onRoute(name)` hears each view opened, `onPanel(id)` each panel shown.
 */
export class Router {
  constructor(views, fallback, { moved = {}, onRoute = null, onPanel = null } = {}) {
    this.views = views;
    this.fallback = fallback;
    this.moved = moved;
    this.current = null;
    this.onRoute = onRoute;
    this.onPanel = onPanel;
  }

  /**
   * The navigation's links inside `nav`: one for each view with a label, in the table's order.
   * Where they do not fit (a phone), the bar scrolls and says so: `data-more` names the ends
   * (`start`, `end`) with links beyond them, which the style fades out.
   */
  buildNav(nav) {
    nav.replaceChildren(...Object.entries(this.views).filter(([, v]) => v.label).map(([name, v]) => {
      const link = document.createElement('a');
      link.href = address(name);
      link.dataset.nav = name;
      link.dataset.i18n = v.label;
      return link;
    }));
    this.nav = nav;
    const more = () => {
      const ends = [];
      if (nav.scrollLeft > 1) ends.push('start');
      if (nav.scrollLeft + nav.clientWidth < nav.scrollWidth - 1) ends.push('end');
      nav.dataset.more = ends.join(' ');
    };
    nav.addEventListener('scroll', more, { passive: true });
    new ResizeObserver(more).observe(nav);
    new MutationObserver(more).observe(nav, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['hidden'] });
    more();
  }

  /** Shows panel `id` alone. */
  showPanel(id) {
    document.body.dataset.view = id;
    for (const element of document.querySelectorAll('[data-panel]')) element.hidden = element.id !== id;
    this.onPanel?.(id);
  }

  /** Marks the navigation's link of view `name` as the current page. */
  markNav(name) {
    const section = this.views[name]?.nav ?? name;
    for (const link of document.querySelectorAll('[data-nav]')) {
      if (link.dataset.nav === section) {
        link.setAttribute('aria-current', 'page');
        // The current section's link is in sight on a bar that scrolls.
        const nav = this.nav;
        if (nav && nav.scrollWidth > nav.clientWidth) {
          const left = link.offsetLeft - nav.offsetLeft;
          if (left < nav.scrollLeft || left + link.offsetWidth > nav.scrollLeft + nav.clientWidth) {
            nav.scrollLeft = Math.max(0, left - (nav.clientWidth - link.offsetWidth) / 2);
          }
        }
      } else link.removeAttribute('aria-current');
    }
  }

  /** Shows the view of the address the page was opened at, and follows every later change. */
  start() {
    window.addEventListener('hashchange', () => this.follow());
    return this.follow();
  }

  /** Shows the view the address names now. */
  follow() {
    let route = parse(location.hash);
    if (route && this.moved[route.name]) {
      route = { name: this.moved[route.name], id: route.id };
      history.replaceState(history.state, '', address(route.name, route.id));
    }
    if (!route || !this.views[route.name]) {
      route = { name: this.fallback, id: null };
      history.replaceState(history.state, '', address(route.name));
    }
    if (this.current && this.current.name === route.name && this.current.id === route.id) return Promise.resolve();
    this.current = route;
    const view = this.views[route.name];
    this.onRoute?.(route.name);
    this.markNav(route.name);
    this.showPanel(typeof view.panel === 'function' ? view.panel(route.id) : view.panel);
    return Promise.resolve(view.show(route.id));
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
    this.markNav(name);
    if (location.hash === target) return;
    if (push) history.pushState(null, '', target);
    else history.replaceState(null, '', target);
  }
}
