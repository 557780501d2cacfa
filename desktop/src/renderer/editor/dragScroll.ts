/** How near the scroll container's top or bottom edge the pointer starts scrolling it, in CSS pixels. */
const EDGE = 56;
/** The fastest scroll, in pixels per frame, with the pointer on (or past) the edge. */
const MAX_STEP = 24;

/** The element that scrolls `el` vertically: its nearest ancestor that can, else the page. */
export function scrollContainerOf(el: HTMLElement): HTMLElement {
  for (let p = el.parentElement; p; p = p.parentElement) {
    if (/(auto|scroll|overlay)/.test(getComputedStyle(p).overflowY) && p.scrollHeight > p.clientHeight) return p;
  }
  return (document.scrollingElement as HTMLElement | null) ?? document.documentElement;
}

/** How far to scroll this frame with the pointer at height `y`: faster the nearer the edge. */
export function edgeStep(y: number, top: number, bottom: number): number {
  const zone = Math.min(EDGE, (bottom - top) / 4);
  if (y < top + zone) return -Math.ceil(MAX_STEP * Math.min(1, (top + zone - y) / zone));
  if (y > bottom - zone) return Math.ceil(MAX_STEP * Math.min(1, (y - (bottom - zone)) / zone));
  return 0;
}

/**
 * Scrolls `el`'s container while a drag holds the pointer near its top or bottom edge,
 * frame by frame (the pointer need not move), calling `onScroll` after each step so what
 * the drag shows follows the page. `move` tells it where the pointer is; `stop` ends it.
 */
export function edgeScroller(el: HTMLElement, onScroll: (y: number) => void) {
  const container = scrollContainerOf(el);
  let y: number | null = null;
  let frame = 0;
  const tick = () => {
    frame = 0;
    if (y === null) return;
    const page = container === document.scrollingElement;
    const r = page ? { top: 0, bottom: window.innerHeight } : container.getBoundingClientRect();
    const step = edgeStep(y, r.top, r.bottom);
    if (!step) return;
    const before = container.scrollTop;
    container.scrollTop = before + step;
    if (container.scrollTop === before) return;
    onScroll(y);
    frame = requestAnimationFrame(tick);
  };
  return {
    move(clientY: number) {
      y = clientY;
      if (!frame) frame = requestAnimationFrame(tick);
    },
    stop() {
      y = null;
      cancelAnimationFrame(frame);
      frame = 0;
    },
  };
}
